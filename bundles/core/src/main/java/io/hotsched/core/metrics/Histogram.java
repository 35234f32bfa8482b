package io.hotsched.core.metrics;

import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * A Prometheus histogram: counts per upper bound, their sum, lock-free. Observing allocates
 * nothing, so it may run per node and per plugin call.
 */
public final class Histogram {

    private final double[] bounds;
    private final LongAdder[] counts;
    private final DoubleAdder sum = new DoubleAdder();

    Histogram(double[] bounds) {
        this.bounds = bounds;
        this.counts = new LongAdder[bounds.length + 1];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = new LongAdder();
        }
    }

    /** Counts one value (seconds, for the duration histograms). */
    public void observe(double value) {
        int lo = 0;
        int hi = bounds.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (value <= bounds[mid]) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        counts[lo].increment();
        sum.add(value);
    }

    /** Counts the time since {@code startNanos} ({@link System#nanoTime()}), in seconds. */
    public void observeSince(long startNanos) {
        observe((System.nanoTime() - startNanos) / 1e9);
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

    double sum() {
        return sum.sum();
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
