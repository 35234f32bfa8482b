package io.hotsched.plugins.loadaware;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What LoadAwareScheduling reads from a {@code slo.koordinator.sh/v1alpha1 NodeMetric}, as vectors: when it
 * was updated and how often it is reported, the node's usage, its aggregated (percentile) usages
 * by type and duration, the system's usage, and each reported pod's usage and priority class.
 */
public final class NodeMetricView {

    static final long DEFAULT_REPORT_INTERVAL_MILLIS = 60_000;

    /** A reported pod: its usage (null when none is reported) and the class the metric gives it. */
    public record PodUsage(long[] usage, String priority) {}

    private final HasMetadata source;
    private final Instant updateTime;
    private final long reportIntervalMillis;
    private final boolean hasNodeMetric;
    private final long[] nodeUsage;
    private final long[] systemUsage;
    private final Map<String, long[]> aggregated = new HashMap<>();
    private final Map<String, PodUsage> pods = new HashMap<>();

    private NodeMetricView(HasMetadata source, Map<String, Object> spec, Map<String, Object> status, Vectorizer v) {
        this.source = source;
        Object interval = path(spec, "metricCollectPolicy", "reportIntervalSeconds");
        this.reportIntervalMillis =
                interval instanceof Number n ? n.longValue() * 1000 : DEFAULT_REPORT_INTERVAL_MILLIS;
        this.updateTime = time(status == null ? null : status.get("updateTime"));
        Map<String, Object> nodeMetric = map(status == null ? null : status.get("nodeMetric"));
        this.hasNodeMetric = nodeMetric != null;
        this.nodeUsage = nodeMetric == null ? null : resources(v, path(nodeMetric, "nodeUsage", "resources"), true);
        this.systemUsage =
                nodeMetric == null ? null : resources(v, path(nodeMetric, "systemUsage", "resources"), false);
        if (nodeMetric != null && nodeMetric.get("aggregatedNodeUsages") instanceof List<?> aggs) {
            Map<String, Long> longest = new HashMap<>();
            for (Object o : aggs) {
                Map<String, Object> agg = map(o);
                if (agg == null) {
                    continue;
                }
                long duration;
                try {
                    duration = GoDuration.millis(String.valueOf(agg.get("duration")));
                } catch (IllegalArgumentException e) {
                    continue;
                }
                Map<String, Object> usage = map(agg.get("usage"));
                if (usage == null) {
                    continue;
                }
                for (Map.Entry<String, Object> byType : usage.entrySet()) {
                    long[] vec = resources(v, path(map(byType.getValue()), "resources"), false);
                    if (vec == null) {
                        continue;
                    }
                    aggregated.put(key(byType.getKey(), duration), vec);
                    // duration 0 means the longest duration with data
                    if (duration >= longest.getOrDefault(byType.getKey(), -1L)) {
                        longest.put(byType.getKey(), duration);
                        aggregated.put(key(byType.getKey(), 0), vec);
                    }
                }
            }
        }
        if (status != null && status.get("podsMetric") instanceof List<?> podsMetric) {
            for (Object o : podsMetric) {
                Map<String, Object> pm = map(o);
                if (pm == null
                        || !(pm.get("name") instanceof String name)
                        || !(pm.get("namespace") instanceof String ns)) {
                    continue;
                }
                long[] usage = resources(v, path(pm, "podUsage", "resources"), false);
                pods.put(ns + "/" + name, new PodUsage(usage, pm.get("priority") instanceof String p ? p : ""));
            }
        }
    }

    /** The metric of an object the cluster connection reported (a GenericKubernetesResource). */
    public static NodeMetricView of(HasMetadata o, Vectorizer v) {
        Map<String, Object> props = o instanceof GenericKubernetesResource g ? g.getAdditionalProperties() : Map.of();
        return new NodeMetricView(o, map(props.get("spec")), map(props.get("status")), v);
    }

    /** The object this view was made from (to tell whether it changed). */
    public HasMetadata source() {
        return source;
    }

    /** {@code status.updateTime}; null when absent. */
    public Instant updateTime() {
        return updateTime;
    }

    public long reportIntervalMillis() {
        return reportIntervalMillis;
    }

    /** Whether {@code status.nodeMetric} is there at all. */
    public boolean hasNodeMetric() {
        return hasNodeMetric;
    }

    /** The node's usage; null only without {@code status.nodeMetric}. */
    public long[] nodeUsage() {
        return nodeUsage;
    }

    /** The system's usage, or null. */
    public long[] systemUsage() {
        return systemUsage;
    }

    /**
     * The aggregated usage of {@code type} over {@code durationMillis}, or null. Duration 0 means the
     * longest one reported with resources, and, when there is none, the node's usage (Koordinator's
     * default: a node that reports no aggregation is judged on its current usage).
     */
    public long[] aggregated(String type, long durationMillis) {
        long[] vec = aggregated.get(key(type, durationMillis));
        return vec == null && durationMillis == 0 ? nodeUsage : vec;
    }

    /** The reported usage of the pod {@code namespace/name}, or null. */
    public PodUsage pod(String key) {
        return pods.get(key);
    }

    /** Whether the metric is too old: no update time, or at least {@code expirationSeconds} ago. */
    public boolean expired(Instant now, long expirationSeconds) {
        return updateTime == null || now.toEpochMilli() - updateTime.toEpochMilli() >= expirationSeconds * 1000;
    }

    private static String key(String type, long duration) {
        return type + "@" + duration;
    }

    private static long[] resources(Vectorizer v, Object list, boolean emptyWhenMissing) {
        Map<String, Object> m = map(list);
        if (m == null) {
            return emptyWhenMissing ? new long[v.size()] : null;
        }
        if (m.isEmpty() && !emptyWhenMissing) {
            return null;
        }
        Map<String, Quantity> q = new HashMap<>();
        m.forEach((k, val) -> {
            if (val != null) {
                q.put(k, new Quantity(String.valueOf(val)));
            }
        });
        return v.ofQuantities(q);
    }

    private static Instant time(Object o) {
        if (!(o instanceof String s) || s.isEmpty()) {
            return null;
        }
        try {
            return Instant.parse(s);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        return o instanceof Map<?, ?> m ? (Map<String, Object>) m : null;
    }

    private static Object path(Map<String, Object> m, String... keys) {
        Object cur = m;
        for (String k : keys) {
            Map<String, Object> mm = map(cur);
            if (mm == null) {
                return null;
            }
            cur = mm.get(k);
        }
        return cur;
    }
}
