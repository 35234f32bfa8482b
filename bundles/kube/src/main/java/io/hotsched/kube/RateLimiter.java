package io.hotsched.kube;

import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * A token bucket: {@code qps} tokens a second, at most {@code burst} saved up; {@link #acquire()}
 * waits for a token. The client-side limit kube-scheduler applies to its API writes
 * ({@code clientConnection.qps}/{@code burst}); fabric8 has none of its own.
 */
final class RateLimiter {

    private final double perNano;
    private final double burst;
    private final LongSupplier clock;
    private final LongConsumer sleeper;
    private double tokens;
    private long last;

    RateLimiter(double qps, int burst) {
        this(qps, burst, System::nanoTime, RateLimiter::sleepNanos);
    }

    /** With the clock and the way to wait given (tests). */
    RateLimiter(double qps, int burst, LongSupplier clock, LongConsumer sleeper) {
        this.perNano = qps <= 0 ? Double.POSITIVE_INFINITY : qps / 1e9;
        this.burst = Math.max(1, burst);
        this.tokens = this.burst;
        this.clock = clock;
        this.sleeper = sleeper;
        this.last = clock.getAsLong();
    }

    private static void sleepNanos(long nanos) {
        try {
            Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Takes one token, waiting as long as needed. */
    void acquire() {
        if (Double.isInfinite(perNano)) {
            return;
        }
        long wait;
        synchronized (this) {
            long now = clock.getAsLong();
            tokens = Math.min(burst, tokens + (now - last) * perNano);
            last = now;
            tokens -= 1;
            wait = tokens >= 0 ? 0 : (long) (-tokens / perNano);
        }
        if (wait > 0) {
            sleeper.accept(wait);
        }
    }
}
