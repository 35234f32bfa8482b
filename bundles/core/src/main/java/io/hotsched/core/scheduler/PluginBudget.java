package io.hotsched.core.scheduler;

import io.hotsched.core.metrics.PluginUsage;
import io.hotsched.core.registry.PluginRegistry;
import io.hotsched.core.registry.Registration;
import io.hotsched.core.runtime.CallWatch;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * How much CPU time and heap one plugin may use: averaged over a window, per second of wall time,
 * summed over its extension points. At the end of each window a plugin over either limit is
 * quarantined by name, as a plugin that keeps failing is. Limits of 0 are off (the default: what
 * is a plugin's fair share depends on the cluster and the machine). A plugin that stops in the
 * middle of a call is the watchdog's business, not this one's.
 */
public final class PluginBudget {

    private final PluginUsage usage;
    private final CallWatch watch;
    private final PluginRegistry registry;
    private final PluginFaults faults;

    private volatile long cpuMillisPerSecond;
    private volatile long allocatedBytesPerSecond;
    private volatile long windowNanos = 60_000_000_000L;

    private long windowStart = -1;
    private Map<String, long[]> atWindowStart = Map.of();

    PluginBudget(PluginUsage usage, CallWatch watch, PluginRegistry registry, PluginFaults faults) {
        this.usage = usage;
        this.watch = watch;
        this.registry = registry;
        this.faults = faults;
    }

    /**
     * Sets the limits: CPU milliseconds and allocated bytes per second averaged over
     * {@code windowSeconds} (0: no limit), and one call in {@code samplingPeriod} measured.
     */
    public void set(long cpuMillisPerSecond, long allocatedBytesPerSecond, int windowSeconds, int samplingPeriod) {
        if (cpuMillisPerSecond < 0 || allocatedBytesPerSecond < 0 || windowSeconds < 1) {
            throw new IllegalArgumentException("limits must be at least 0 and the window at least 1s, not "
                    + cpuMillisPerSecond + "ms/s, " + allocatedBytesPerSecond + "B/s, " + windowSeconds + "s");
        }
        watch.setSamplingPeriod(samplingPeriod);
        this.cpuMillisPerSecond = cpuMillisPerSecond;
        this.allocatedBytesPerSecond = allocatedBytesPerSecond;
        this.windowNanos = windowSeconds * 1_000_000_000L;
    }

    /** From the housekeeping thread only: at the end of a window, quarantines the plugins over a limit. */
    void check(long nowNanos) {
        if (windowStart != -1 && nowNanos - windowStart < windowNanos) {
            return;
        }
        Map<String, long[]> now = perPlugin();
        if (windowStart != -1) {
            double seconds = (nowNanos - windowStart) / 1e9;
            now.forEach((plugin, total) -> {
                long[] before = atWindowStart.getOrDefault(plugin, new long[2]);
                String over = over(plugin, total[0] - before[0], total[1] - before[1], seconds);
                if (over != null) {
                    Optional<Registration> r = registry.serving(plugin);
                    r.ifPresent(reg -> faults.overBudget(reg, over));
                }
            });
        }
        atWindowStart = now;
        windowStart = nowNanos;
    }

    /** What {@code plugin}, which used {@code cpuNanos} and {@code bytes} in {@code seconds} is over, or null. */
    private String over(String plugin, long cpuNanos, long bytes, double seconds) {
        long cpuLimit = cpuMillisPerSecond;
        long bytesLimit = allocatedBytesPerSecond;
        String window = String.format("%.1fs", seconds);
        if (cpuLimit > 0 && cpuNanos / 1e6 > cpuLimit * seconds) {
            return String.format(
                    "%s used %dms of CPU time in the last %s, over the limit of %dms per second "
                            + "(pluginCpuMillisPerSecond)",
                    plugin, cpuNanos / 1_000_000, window, cpuLimit);
        }
        if (bytesLimit > 0 && bytes > bytesLimit * seconds) {
            return String.format(
                    "%s allocated %d MiB in the last %s, over the limit of %d MiB per second "
                            + "(pluginAllocatedMegabytesPerSecond)",
                    plugin, bytes >> 20, window, bytesLimit >> 20);
        }
        return null;
    }

    private Map<String, long[]> perPlugin() {
        Map<String, long[]> out = new HashMap<>();
        usage.totals().forEach((plugin, points) -> {
            long[] sum = new long[2];
            points.values().forEach(v -> {
                sum[0] += v[0];
                sum[1] += v[1];
            });
            out.put(plugin, sum);
        });
        return out;
    }
}
