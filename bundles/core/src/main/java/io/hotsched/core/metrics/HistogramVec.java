package io.hotsched.core.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

/**
 * One histogram per combination of label values, made on first use. Look-ups walk one map per
 * label, so the hot path allocates nothing once a combination exists.
 */
public final class HistogramVec {

    private final String name;
    private final String help;
    private final List<String> labels;
    private final double[] bounds;
    private final Map<String, Object> root = new ConcurrentHashMap<>();

    HistogramVec(String name, String help, double[] bounds, String... labels) {
        this.name = name;
        this.help = help;
        this.bounds = bounds;
        this.labels = List.of(labels);
    }

    public String name() {
        return name;
    }

    String help() {
        return help;
    }

    List<String> labels() {
        return labels;
    }

    public Histogram with(String a) {
        return (Histogram) level(root, a, true);
    }

    public Histogram with(String a, String b) {
        return (Histogram) level(level(root, a, false), b, true);
    }

    public Histogram with(String a, String b, String c) {
        return (Histogram) level(level(level(root, a, false), b, false), c, true);
    }

    @SuppressWarnings("unchecked")
    private Object level(Object map, String value, boolean leaf) {
        Map<String, Object> m = (Map<String, Object>) map;
        Object next = m.get(value);
        if (next == null) {
            next = m.computeIfAbsent(
                    value, v -> leaf ? new Histogram(bounds) : new ConcurrentHashMap<String, Object>());
        }
        return next;
    }

    /** Every histogram with its label values, in no particular order. */
    void forEach(BiConsumer<List<String>, Histogram> visit) {
        walk(root, new ArrayList<>(), visit);
    }

    @SuppressWarnings("unchecked")
    private void walk(Map<String, Object> m, List<String> path, BiConsumer<List<String>, Histogram> visit) {
        for (Map.Entry<String, Object> e : m.entrySet()) {
            path.add(e.getKey());
            if (e.getValue() instanceof Histogram h) {
                visit.accept(List.copyOf(path), h);
            } else {
                walk((Map<String, Object>) e.getValue(), path, visit);
            }
            path.remove(path.size() - 1);
        }
    }
}
