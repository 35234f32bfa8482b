package io.hotsched.bench.perf;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The scheduler's duration histograms as scheduler_perf reports them: read from two scrapes of
 * {@code /metrics} (the measured phase is their difference, as upstream resets the registry when
 * it starts collecting), merged per label filter, and summarised as Perc50/90/95/99 and Average
 * in milliseconds with Prometheus' bucket interpolation.
 */
final class Histograms {

    /** One series: cumulative counts per upper bound (the last is +Inf), and the sum of observations. */
    record Series(String name, Map<String, String> labels, TreeMap<Double, Double> buckets, double sum) {}

    /** One summary row: what scheduler_perf writes as a DataItem with unit ms. */
    record Item(
            String metric,
            Map<String, String> labels,
            long count,
            double average,
            double p50,
            double p90,
            double p95,
            double p99) {}

    /** upstream's collectors (defaultMetricsCollectorConfig): metric, the label it splits by, the values it reports. */
    static final List<String> EXTENSION_POINTS = List.of(
            "PreFilter",
            "Filter",
            "PreFilterExtensionAddPod",
            "PreFilterExtensionRemovePod",
            "PostFilter",
            "PreScore",
            "Score",
            "ScoreExtensionNormalize",
            "PreBind",
            "Bind",
            "PostBind",
            "Reserve",
            "Unreserve",
            "Permit");

    static final List<String> RESULTS = List.of("scheduled", "unschedulable", "error");

    private static final Pattern LINE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)\\})? (\\S+)$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    private Histograms() {}

    /** The histogram series of a Prometheus text page, keyed by name and labels (without {@code le}). */
    static Map<String, Series> parse(String text) {
        Map<String, Series> out = new LinkedHashMap<>();
        if (text == null) {
            return out;
        }
        for (String line : text.split("\n")) {
            if (line.startsWith("#") || line.isBlank()) {
                continue;
            }
            Matcher m = LINE.matcher(line.trim());
            if (!m.matches()) {
                continue;
            }
            String metric = m.group(1);
            Map<String, String> labels = new TreeMap<>();
            if (m.group(2) != null) {
                Matcher l = LABEL.matcher(m.group(2));
                while (l.find()) {
                    labels.put(
                            l.group(1),
                            l.group(2)
                                    .replace("\\\"", "\"")
                                    .replace("\\n", "\n")
                                    .replace("\\\\", "\\"));
                }
            }
            double value = Double.parseDouble(m.group(3));
            if (metric.endsWith("_bucket") && labels.containsKey("le")) {
                String le = labels.remove("le");
                Series s = series(out, metric.substring(0, metric.length() - "_bucket".length()), labels);
                s.buckets().put(le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le), value);
            } else if (metric.endsWith("_sum")) {
                String name = metric.substring(0, metric.length() - "_sum".length());
                Series s = series(out, name, labels);
                out.put(key(name, labels), new Series(name, s.labels(), s.buckets(), value));
            }
        }
        out.values().removeIf(s -> s.buckets().isEmpty());
        return out;
    }

    private static Series series(Map<String, Series> out, String name, Map<String, String> labels) {
        return out.computeIfAbsent(key(name, labels), k -> new Series(name, labels, new TreeMap<>(), 0));
    }

    private static String key(String name, Map<String, String> labels) {
        return name + labels;
    }

    /** {@code after - before}, series by series (a series missing before counts from zero). */
    static Map<String, Series> delta(Map<String, Series> before, Map<String, Series> after) {
        Map<String, Series> out = new LinkedHashMap<>();
        for (Map.Entry<String, Series> e : after.entrySet()) {
            Series a = e.getValue();
            Series b = before.get(e.getKey());
            TreeMap<Double, Double> buckets = new TreeMap<>();
            a.buckets()
                    .forEach((le, c) ->
                            buckets.put(le, c - (b == null ? 0 : b.buckets().getOrDefault(le, 0.0))));
            out.put(e.getKey(), new Series(a.name(), a.labels(), buckets, a.sum() - (b == null ? 0 : b.sum())));
        }
        return out;
    }

    /**
     * The series of {@code metric} whose labels match {@code filter}, merged (other labels summed
     * over), as scheduler_perf's collector does; null when they hold no observation.
     */
    static Item summarise(Map<String, Series> all, String metric, Map<String, String> filter) {
        TreeMap<Double, Double> buckets = new TreeMap<>();
        double sum = 0;
        for (Series s : all.values()) {
            if (!s.name().equals(metric)
                    || !filter.entrySet().stream()
                            .allMatch(f -> f.getValue().equals(s.labels().get(f.getKey())))) {
                continue;
            }
            s.buckets().forEach((le, c) -> buckets.merge(le, c, Double::sum));
            sum += s.sum();
        }
        double count = buckets.isEmpty() ? 0 : buckets.lastEntry().getValue();
        if (count <= 0) {
            return null;
        }
        double ms = 1000;
        return new Item(
                metric,
                filter,
                (long) count,
                sum / count * ms,
                quantile(0.50, buckets) * ms,
                quantile(0.90, buckets) * ms,
                quantile(0.95, buckets) * ms,
                quantile(0.99, buckets) * ms);
    }

    /**
     * Prometheus' bucket quantile: the rank's bucket, interpolated linearly from its lower bound
     * (0 for the first); a rank in the +Inf bucket gives the highest finite bound.
     */
    static double quantile(double q, TreeMap<Double, Double> cumulative) {
        List<Map.Entry<Double, Double>> b = new ArrayList<>(cumulative.entrySet());
        double total = b.get(b.size() - 1).getValue();
        double rank = q * total;
        int i = 0;
        while (i < b.size() - 1 && b.get(i).getValue() < rank) {
            i++;
        }
        if (Double.isInfinite(b.get(i).getKey())) {
            return b.size() > 1 ? b.get(b.size() - 2).getKey() : 0;
        }
        double start = i == 0 ? 0 : b.get(i - 1).getKey();
        double below = i == 0 ? 0 : b.get(i - 1).getValue();
        double inBucket = b.get(i).getValue() - below;
        if (inBucket <= 0) {
            return b.get(i).getKey();
        }
        return start + (b.get(i).getKey() - start) * ((rank - below) / inBucket);
    }

    /** What scheduler_perf's default collectors report for a measured phase, empty ones left out. */
    static List<Item> standard(Map<String, Series> phase) {
        List<Item> items = new ArrayList<>();
        for (String r : RESULTS) {
            add(items, summarise(phase, "scheduler_scheduling_attempt_duration_seconds", Map.of("result", r)));
        }
        for (String p : EXTENSION_POINTS) {
            add(
                    items,
                    summarise(
                            phase,
                            "scheduler_framework_extension_point_duration_seconds",
                            Map.of("extension_point", p)));
        }
        TreeMap<String, Map<String, String>> pluginPoints = new TreeMap<>();
        for (Series s : phase.values()) {
            if (s.name().equals("scheduler_plugin_execution_duration_seconds")) {
                String plugin = s.labels().get("plugin");
                String point = s.labels().get("extension_point");
                Map<String, String> labels = new LinkedHashMap<>();
                labels.put("plugin", plugin);
                labels.put("extension_point", point);
                pluginPoints.put(plugin + "/" + point, labels);
            }
        }
        for (Map<String, String> f : pluginPoints.values()) {
            add(items, summarise(phase, "scheduler_plugin_execution_duration_seconds", f));
        }
        return items;
    }

    private static void add(List<Item> items, Item i) {
        if (i != null) {
            items.add(i);
        }
    }
}
