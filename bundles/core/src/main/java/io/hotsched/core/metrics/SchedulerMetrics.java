package io.hotsched.core.metrics;

import io.hotsched.api.framework.Code;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The scheduler's metrics, named, labelled and bucketed as kube-scheduler's
 * ({@code pkg/scheduler/metrics}), so dashboards and scheduler_perf's collectors read them
 * unchanged. One instance per scheduler; written as Prometheus text by {@link #writeText}.
 */
public final class SchedulerMetrics {

    /** Result label values of {@link #attemptDuration}. */
    public static final String SCHEDULED = "scheduled";

    public static final String UNSCHEDULABLE = "unschedulable";
    public static final String ERROR = "error";

    /** Upstream's share of attempts whose plugin calls are timed (pluginMetricsSamplePercent). */
    public static final int PLUGIN_SAMPLE_PERCENT = 10;

    /** Labels result, profile: from the pod leaving the queue to bound, refused or failed. */
    public final HistogramVec attemptDuration = new HistogramVec(
            "scheduler_scheduling_attempt_duration_seconds",
            "Scheduling attempt latency in seconds (scheduling algorithm + binding)",
            Histogram.exponential(0.001, 2, 15),
            "result",
            "profile");

    /** Labels extension_point, status, profile. */
    public final HistogramVec extensionPointDuration = new HistogramVec(
            "scheduler_framework_extension_point_duration_seconds",
            "Latency for running all plugins of a specific extension point.",
            Histogram.exponential(0.0001, 2, 12),
            "extension_point",
            "status",
            "profile");

    /** Labels plugin, extension_point, status; only {@link #PLUGIN_SAMPLE_PERCENT}% of attempts are timed. */
    public final HistogramVec pluginExecutionDuration = new HistogramVec(
            "scheduler_plugin_execution_duration_seconds",
            "Duration for running a plugin at a specific extension point.",
            Histogram.exponential(0.00001, 1.5, 20),
            "plugin",
            "extension_point",
            "status");

    /** The search for a node: PreFilter to the chosen node, without Reserve, Permit and binding. */
    public final Histogram algorithmDuration = new Histogram(Histogram.exponential(0.001, 2, 15));

    /** {@code fault} label of {@link #countFault}: the call threw or returned an error of its own making. */
    public static final String FAULT_ERROR = "error";
    /** {@code fault} label of {@link #countFault}: the call ran past its time-out. */
    public static final String FAULT_TIMEOUT = "timeout";

    /** hotsched_plugin_faults_total by plugin, extension_point, fault: no upstream counterpart (upstream has no time-outs). */
    private final Map<List<String>, LongAdder> pluginFaults = new ConcurrentHashMap<>();

    private volatile Supplier<Map<String, Integer>> pendingPods = Map::of;
    /** Series written by other parts of the core (the shadows'), after these. */
    private final List<Consumer<StringBuilder>> sections = new CopyOnWriteArrayList<>();

    /** Adds series that {@code section} writes in the text format after the scheduler's own. */
    public void addSection(Consumer<StringBuilder> section) {
        sections.add(section);
    }

    private volatile Supplier<Map<String, List<String>>> threadsLeft = Map::of;

    /** Where {@code hotsched_bundle_threads_left_running} comes from: per stopped bundle, the threads it left running. */
    public void threadsLeftFrom(Supplier<Map<String, List<String>>> threads) {
        this.threadsLeft = threads;
    }

    /** CPU time and allocation of plugin calls: no upstream counterpart. */
    public final PluginUsage pluginUsage = new PluginUsage();

    /** Counts a plugin call that threw, returned out of range, or ran past its time-out. */
    public void countFault(String plugin, String extensionPoint, String fault) {
        pluginFaults
                .computeIfAbsent(List.of(plugin, extensionPoint, fault), k -> new LongAdder())
                .increment();
    }

    /** The faults counted for {@code plugin} at {@code extensionPoint} of kind {@code fault}. */
    public long faults(String plugin, String extensionPoint, String fault) {
        LongAdder n = pluginFaults.get(List.of(plugin, extensionPoint, fault));
        return n == null ? 0 : n.sum();
    }

    /** Where {@code scheduler_pending_pods} comes from: pods per queue (active, backoff, unschedulable, gated). */
    public void pendingPodsFrom(Supplier<Map<String, Integer>> counts) {
        this.pendingPods = counts;
    }

    /** Attempts that ended with {@code result} ({@link #SCHEDULED}, ...) in any profile: scheduler_schedule_attempts_total summed. */
    public long attempts(String result) {
        long[] n = {0};
        attemptDuration.forEach((labels, h) -> {
            if (labels.get(0).equals(result)) {
                n[0] += h.count();
            }
        });
        return n[0];
    }

    /** Upstream's spelling of a status code, the {@code status} label. */
    public static String status(Code code) {
        return switch (code) {
            case SUCCESS -> "Success";
            case ERROR -> "Error";
            case UNSCHEDULABLE -> "Unschedulable";
            case UNSCHEDULABLE_AND_UNRESOLVABLE -> "UnschedulableAndUnresolvable";
            case WAIT -> "Wait";
            case SKIP -> "Skip";
            case PENDING -> "Pending";
        };
    }

    /** All metrics in the Prometheus text exposition format (version 0.0.4). */
    public void writeText(StringBuilder out) {
        writeAttempts(out);
        write(out, attemptDuration);
        writeOne(
                out,
                "scheduler_scheduling_algorithm_duration_seconds",
                "Scheduling algorithm latency in seconds",
                algorithmDuration);
        write(out, extensionPointDuration);
        write(out, pluginExecutionDuration);
        writeFaults(out);
        pluginUsage.writeText(out);
        out.append("# HELP hotsched_bundle_threads_left_running Threads a stopped bundle started and left running, ")
                .append("by bundle (symbolic name and version).\n# TYPE hotsched_bundle_threads_left_running gauge\n");
        threadsLeft
                .get()
                .forEach((bundle, names) -> out.append("hotsched_bundle_threads_left_running{bundle=\"")
                        .append(escape(bundle))
                        .append("\"} ")
                        .append(names.size())
                        .append('\n'));
        Map<String, Integer> pending = pendingPods.get();
        out.append(
                "# HELP scheduler_pending_pods Number of pending pods, by the queue type.\n# TYPE scheduler_pending_pods gauge\n");
        pending.entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .forEach(e -> out.append("scheduler_pending_pods{queue=\"")
                        .append(escape(e.getKey()))
                        .append("\"} ")
                        .append(e.getValue())
                        .append('\n'));
        for (Consumer<StringBuilder> section : sections) {
            section.accept(out);
        }
    }

    private void writeFaults(StringBuilder out) {
        out.append("# HELP hotsched_plugin_faults_total Plugin calls that failed (threw, returned out of range) ")
                .append("or ran past their time-out, by plugin, extension point and fault.\n")
                .append("# TYPE hotsched_plugin_faults_total counter\n");
        pluginFaults.entrySet().stream()
                .sorted(Comparator.comparing(e -> String.join("\u0000", e.getKey())))
                .forEach(e -> out.append("hotsched_plugin_faults_total{plugin=\"")
                        .append(escape(e.getKey().get(0)))
                        .append("\",extension_point=\"")
                        .append(escape(e.getKey().get(1)))
                        .append("\",fault=\"")
                        .append(escape(e.getKey().get(2)))
                        .append("\"} ")
                        .append(e.getValue().sum())
                        .append('\n'));
    }

    /** scheduler_schedule_attempts_total: the attempt histogram's counts, as upstream counts both at once. */
    private void writeAttempts(StringBuilder out) {
        out.append("# HELP scheduler_schedule_attempts_total Number of attempts to schedule pods, by the result.\n")
                .append("# TYPE scheduler_schedule_attempts_total counter\n");
        for (Map.Entry<List<String>, Histogram> e : sorted(attemptDuration)) {
            out.append("scheduler_schedule_attempts_total{profile=\"")
                    .append(escape(e.getKey().get(1)))
                    .append("\",result=\"")
                    .append(escape(e.getKey().get(0)))
                    .append("\"} ")
                    .append(e.getValue().count())
                    .append('\n');
        }
    }

    private static void write(StringBuilder out, HistogramVec vec) {
        out.append("# HELP ").append(vec.name()).append(' ').append(vec.help()).append('\n');
        out.append("# TYPE ").append(vec.name()).append(" histogram\n");
        for (Map.Entry<List<String>, Histogram> e : sorted(vec)) {
            StringBuilder labels = new StringBuilder();
            for (int i = 0; i < vec.labels().size(); i++) {
                labels.append(vec.labels().get(i))
                        .append("=\"")
                        .append(escape(e.getKey().get(i)))
                        .append("\",");
            }
            series(out, vec.name(), labels.toString(), e.getValue());
        }
    }

    private static void writeOne(StringBuilder out, String name, String help, Histogram h) {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(" histogram\n");
        series(out, name, "", h);
    }

    private static void series(StringBuilder out, String name, String labels, Histogram h) {
        long[] c = h.cumulative();
        double[] b = h.bounds();
        for (int i = 0; i < b.length; i++) {
            out.append(name)
                    .append("_bucket{")
                    .append(labels)
                    .append("le=\"")
                    .append(b[i])
                    .append("\"} ")
                    .append(c[i])
                    .append('\n');
        }
        out.append(name)
                .append("_bucket{")
                .append(labels)
                .append("le=\"+Inf\"} ")
                .append(c[b.length])
                .append('\n');
        String plain = labels.isEmpty() ? "" : "{" + labels.substring(0, labels.length() - 1) + "}";
        out.append(name)
                .append("_sum")
                .append(plain)
                .append(' ')
                .append(h.sum())
                .append('\n');
        out.append(name)
                .append("_count")
                .append(plain)
                .append(' ')
                .append(c[b.length])
                .append('\n');
    }

    private static List<Map.Entry<List<String>, Histogram>> sorted(HistogramVec vec) {
        List<Map.Entry<List<String>, Histogram>> all = new ArrayList<>();
        vec.forEach((labels, h) -> all.add(Map.entry(labels, h)));
        all.sort(Comparator.comparing(e -> String.join("\u0000", e.getKey())));
        return all;
    }

    /** A label value as the text format writes it (backslash, quote and newline escaped). */
    public static String escape(String v) {
        return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
