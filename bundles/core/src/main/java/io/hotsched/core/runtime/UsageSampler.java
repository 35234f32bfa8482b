package io.hotsched.core.runtime;

import io.hotsched.core.metrics.PluginUsage;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * Measures one thread's plugin calls for {@link PluginUsage}: thread CPU time and allocated bytes
 * around a call. Reading a thread's CPU time costs about a microsecond (a system call), more than
 * a Filter or Score call of a node takes, so only one call in {@link CallWatch#samplingPeriod()}
 * on average is measured, at random intervals (a fixed stride would keep measuring the same plugin
 * of a node's plugin loop), and counts for the calls it stands for. Not measured: calls inside
 * another plugin call (they count to the outer one).
 * Written and read by its thread only.
 */
final class UsageSampler {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final com.sun.management.ThreadMXBean HOTSPOT =
            THREADS instanceof com.sun.management.ThreadMXBean h && h.isThreadAllocatedMemorySupported() ? h : null;
    private static final boolean CPU = THREADS.isCurrentThreadCpuTimeSupported();
    /** What two reads of the CPU time cost on their own, taken off each measured call: else it would dominate a cheap one. */
    private static final long CPU_READ_NANOS = CPU ? calibrate() : 0;

    private final PluginUsage usage;
    private final CallWatch watch;
    private long seed;
    private int countdown;
    private int weight;
    private boolean armed;
    private long cpu0;
    private long bytes0;

    UsageSampler(PluginUsage usage, CallWatch watch, long seed) {
        this.usage = usage;
        this.watch = watch;
        this.seed = seed | 1;
    }

    /** An outermost plugin call begins on this thread. */
    void begin() {
        if (--countdown > 0) {
            return;
        }
        int period = watch.samplingPeriod();
        weight = period;
        // uniform in [1, 2 * period - 1]: the mean interval is the period, so each measured call counts for period
        // calls
        countdown = period == 1 ? 1 : 1 + (int) Long.remainderUnsigned(next(), 2L * period - 1);
        armed = true;
        bytes0 = HOTSPOT == null ? 0 : HOTSPOT.getCurrentThreadAllocatedBytes();
        cpu0 = CPU ? THREADS.getCurrentThreadCpuTime() : 0;
    }

    /** The outermost call begun last, {@code call} of {@code instance}, returned. */
    void end(PluginInstance instance, PluginCall call) {
        if (!armed) {
            return;
        }
        armed = false;
        long cpu = CPU ? Math.max(0, THREADS.getCurrentThreadCpuTime() - cpu0 - CPU_READ_NANOS) : 0;
        long bytes = HOTSPOT == null ? 0 : HOTSPOT.getCurrentThreadAllocatedBytes() - bytes0;
        if (instance != null && call != null) {
            usage.account(instance.name(), call.point().label()).add(cpu * weight, bytes * weight);
        }
    }

    private static long calibrate() {
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 200; i++) {
            long a = THREADS.getCurrentThreadCpuTime();
            least = Math.min(least, THREADS.getCurrentThreadCpuTime() - a);
        }
        return least;
    }

    private long next() {
        // xorshift64: a few instructions, no shared state between threads
        long x = seed;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        seed = x;
        return x;
    }
}
