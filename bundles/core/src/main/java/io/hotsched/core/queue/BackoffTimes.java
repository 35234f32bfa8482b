package io.hotsched.core.queue;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * When a pod's backoff ends, as upstream's: the initial backoff doubling per attempt up to the
 * maximum (1 s to 10 s by default), and, when popping from backoffQ, on the start of a whole-second
 * window (upstream's backoffQOrderingWindowDuration) so that pods of one window come out in the
 * active queue's order. Thread-safe.
 */
final class BackoffTimes {

    private volatile Duration initial;
    private volatile Duration max;
    private volatile boolean windows;

    BackoffTimes(Duration initial, Duration max, boolean windows) {
        this.initial = initial;
        this.max = max;
        this.windows = windows;
    }

    void set(Duration initial, Duration max) {
        this.initial = initial;
        this.max = max;
    }

    void windows(boolean on) {
        windows = on;
    }

    boolean windows() {
        return windows;
    }

    /** 1 s, 2 s, 4 s ... doubling per attempt, capped at the maximum. */
    Duration duration(int attempts) {
        Duration d = initial;
        Duration cap = max;
        for (int i = 1; i < attempts; i++) {
            d = d.multipliedBy(2);
            if (d.compareTo(cap) >= 0) {
                return cap;
            }
        }
        return d.compareTo(cap) > 0 ? cap : d;
    }

    /** The backoff end of a pod that backed off from {@code from}: on a window's start when windows are on. */
    Instant end(Instant from, int attempts) {
        Instant end = from.plus(duration(attempts));
        return windows ? aligned(end) : end;
    }

    /** Still backing off at {@code now}: with windows, until the window holding its end has passed. */
    boolean backingOff(Instant expiry, Instant now) {
        return windows ? !expiry.isBefore(aligned(now)) : expiry.isAfter(now);
    }

    private static Instant aligned(Instant t) {
        return t.truncatedTo(ChronoUnit.SECONDS);
    }
}
