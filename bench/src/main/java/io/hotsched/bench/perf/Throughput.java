package io.hotsched.bench.perf;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.IntSupplier;

/**
 * scheduler_perf's SchedulingThroughput: every second the number of scheduled pods in the measured
 * namespace; the first non-zero sample is skipped; after seconds without progress, the next
 * positive count is spread over the time it took and recorded once per second it covers.
 */
final class Throughput {

    private final IntSupplier scheduled;
    private final List<Double> samples = new ArrayList<>();
    private int last;
    private long lastNanos;
    private boolean skippedFirst;
    private int idle;

    Throughput(IntSupplier scheduled) {
        this.scheduled = scheduled;
        this.last = scheduled.getAsInt();
        this.lastNanos = System.nanoTime();
    }

    /** Takes one sample (call every second); returns the current rate, pods/s. */
    double sample() {
        int now = scheduled.getAsInt();
        long t = System.nanoTime();
        int delta = now - last;
        if (delta == 0) {
            idle++;
            return 0;
        }
        double seconds = (t - lastNanos) / 1e9;
        double rate = delta / seconds;
        last = now;
        lastNanos = t;
        if (!skippedFirst) {
            skippedFirst = true;
            idle = 0;
            return rate;
        }
        for (int i = 0; i <= idle; i++) {
            samples.add(rate);
        }
        idle = 0;
        return rate;
    }

    /** Average and Perc50/90/95/99 as upstream summarises them (pods/s); empty with no samples. */
    Summary summary() {
        List<Double> s = new ArrayList<>(samples);
        Collections.sort(s);
        if (s.isEmpty()) {
            return new Summary(0, 0, 0, 0, 0, 0);
        }
        double sum = 0;
        for (double d : s) {
            sum += d;
        }
        return new Summary(sum / s.size(), perc(s, 50), perc(s, 90), perc(s, 95), perc(s, 99), s.size());
    }

    private static double perc(List<Double> sorted, int n) {
        int i = (int) Math.ceil(sorted.size() * n / 100.0) - 1;
        return sorted.get(Math.max(0, i));
    }

    record Summary(double average, double perc50, double perc90, double perc95, double perc99, int samples) {}
}
