package io.hotsched.core.metrics;

import java.util.concurrent.atomic.LongAdder;

/**
 * A Prometheus histogram of durations: counts per upper bound (seconds, as exposed) and their
 * sum, kept in nanoseconds, lock-free. Observing allocates nothing and does no floating point, so
 * it may run per node and per plugin call.
 */
public final class Histogram {

    private final double[] bounds;
    private final long[] boundNanos;
    private final LongAdder[] counts;
    private final LongAdder sumNanos = new LongAdder();

    Histogram(double[] bounds) {
        this.bounds = bounds;
        this.boundNanos = new long[bounds.length];
        for (int i = 0; i < bounds.length; i++) {
            boundNanos[i] = Math.round(bounds[i] * 1e9);
        }
        this.counts = new LongAdder[bounds.length + 1];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = new LongAdder();
        }
    }

    /** Counts one duration in nanoseconds. */
    public void observeNanos(long nanos) {
        int lo = 0;
        int hi = boundNanos.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (nanos <= boundNanos[mid]) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        counts[lo].increment();
        sumNanos.add(nanos);
    }

    /** Counts one duration in seconds. */
    public void observe(double seconds) {
        observeNanos(Math.round(seconds * 1e9));
    }

    /** Counts the time since {@code startNanos} ({@link System#nanoTime()}). */
    public void observeSince(long startNanos) {
        observeNanos(System.nanoTime() - startNanos);
    }

    double[] bounds() {
        return bounds;
    }

    /** Cumulative counts per bound, the last one is +Inf (the total). */
    long[] cumulative() {
        long[] c = new long[counts.length];
        long run = 0;
        for (int i = 0; i < counts.length; i++) {
            run += counts[i].sum();
            c[i] = run;
        }
        return c;
    }

    /** How many observations there were. */
    long count() {
        long n = 0;
        for (LongAdder c : counts) {
            n += c.sum();
        }
        return n;
    }

    /** The sum of the observations in seconds. */
    double sum() {
        return sumNanos.sum() / 1e9;
    }

    /** Upper bounds {@code start * factor^i} for i in [0, count), as Prometheus' ExponentialBuckets. */
    static double[] exponential(double start, double factor, int count) {
        double[] b = new double[count];
        double v = start;
        for (int i = 0; i < count; i++) {
            b[i] = v;
            v *= factor;
        }
        return b;
    }
}
