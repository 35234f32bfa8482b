package io.hotsched.itests;

import java.time.Duration;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Spaces out the steps of a loop that feeds input to the platform under load (plugin swaps,
 * configuration changes), as {@link PodLoad} spaces out its pods. Time-based on purpose: it
 * decides when the next input is given, never whether a result has arrived; the tests wait for
 * results with {@code await}.
 *
 * <p>{@link #gaps} leaves a gap between the end of one step and the start of the next (a step that
 * waits for its effect, such as a swap, takes as long as it takes); {@link #fixedRate} keeps a
 * rate: step k is due at start + the first k gaps, and a slow step delays the next, which catches up after it.
 */
final class Pacing {

    private final LongSupplier gapNanos;
    private final boolean fixedRate;
    private long due = System.nanoTime();

    private Pacing(LongSupplier gapNanos, boolean fixedRate) {
        this.gapNanos = gapNanos;
        this.fixedRate = fixedRate;
    }

    /** A gap of {@code gap} after each step. */
    static Pacing gaps(Duration gap) {
        return new Pacing(gap::toNanos, false);
    }

    /** A gap of between {@code min} and {@code max} after each step, drawn from {@code random}. */
    static Pacing gaps(Duration min, Duration max, Random random) {
        long spread = max.toMillis() - min.toMillis();
        return new Pacing(() -> TimeUnit.MILLISECONDS.toNanos(min.toMillis() + random.nextInt((int) spread)), false);
    }

    /**
     * Steps {@code cycle[0]} apart, then {@code cycle[1]}, ..., then {@code cycle[0]} again, counted
     * from now.
     */
    static Pacing fixedRate(Duration... cycle) {
        int[] next = {0};
        return new Pacing(() -> cycle[next[0]++ % cycle.length].toNanos(), true);
    }

    /** Returns when the next step is due. */
    void awaitNextStep() throws InterruptedException {
        due = (fixedRate ? due : System.nanoTime()) + gapNanos.getAsLong();
        long left = due - System.nanoTime();
        if (left > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }
}
