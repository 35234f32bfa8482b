package io.hotsched.core.metrics;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * CPU time and heap allocation of plugin calls, by plugin and extension point, as the calling
 * threads measured them ({@code hotsched_plugin_cpu_seconds_total},
 * {@code hotsched_plugin_allocated_bytes_total}). Figures are estimates when only a share of the
 * calls is measured: each measured call counts for the calls it stands for.
 */
public final class PluginUsage {

    /** One plugin's usage at one extension point. */
    public static final class Account {
        private final LongAdder cpuNanos = new LongAdder();
        private final LongAdder bytes = new LongAdder();

        public void add(long cpuNanos, long bytes) {
            this.cpuNanos.add(cpuNanos);
            this.bytes.add(bytes);
        }
    }

    private final Map<String, Map<String, Account>> accounts = new ConcurrentHashMap<>();

    /** The account of {@code plugin} at {@code extensionPoint}; allocates only the first time. */
    public Account account(String plugin, String extensionPoint) {
        Map<String, Account> byPoint = accounts.get(plugin);
        if (byPoint == null) {
            byPoint = accounts.computeIfAbsent(plugin, k -> new ConcurrentHashMap<>());
        }
        Account a = byPoint.get(extensionPoint);
        return a != null ? a : byPoint.computeIfAbsent(extensionPoint, k -> new Account());
    }

    /** Per plugin, per extension point: {cpu nanos, bytes}, sorted by name. */
    public Map<String, Map<String, long[]>> totals() {
        Map<String, Map<String, long[]>> out = new TreeMap<>();
        accounts.forEach((plugin, byPoint) -> {
            Map<String, long[]> points = new TreeMap<>();
            byPoint.forEach((point, a) -> points.put(point, new long[] {a.cpuNanos.sum(), a.bytes.sum()}));
            out.put(plugin, points);
        });
        return out;
    }

    void writeText(StringBuilder out) {
        Map<String, Map<String, long[]>> totals = totals();
        out.append("# HELP hotsched_plugin_cpu_seconds_total CPU time of the threads in plugin calls, ")
                .append("by plugin and extension point (estimated from the calls measured).\n")
                .append("# TYPE hotsched_plugin_cpu_seconds_total counter\n");
        write(out, "hotsched_plugin_cpu_seconds_total", totals, 0, 1e-9);
        out.append("# HELP hotsched_plugin_allocated_bytes_total Heap allocated by the threads in plugin calls, ")
                .append("by plugin and extension point (estimated from the calls measured).\n")
                .append("# TYPE hotsched_plugin_allocated_bytes_total counter\n");
        write(out, "hotsched_plugin_allocated_bytes_total", totals, 1, 1);
    }

    private static void write(
            StringBuilder out, String name, Map<String, Map<String, long[]>> totals, int index, double scale) {
        totals.forEach((plugin, points) -> points.forEach((point, v) -> {
            out.append(name)
                    .append("{plugin=\"")
                    .append(SchedulerMetrics.escape(plugin))
                    .append("\",extension_point=\"")
                    .append(SchedulerMetrics.escape(point))
                    .append("\"} ");
            if (scale == 1) {
                out.append(v[index]);
            } else {
                out.append(v[index] * scale);
            }
            out.append('\n');
        }));
    }
}
