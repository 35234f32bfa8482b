package io.hotsched.plugins.loadaware;

import java.util.ArrayList;
import java.util.List;

/**
 * A node's load as Koordinator's assigned-pod cache derives it from the pods placed on the node
 * and its latest NodeMetric: what recently placed pods will add beyond what the metric already
 * shows (the deltas), the full estimates of all of them, and the usage of the prod pods.
 */
public final class NodeLoad {

    /** Why there is no load to compare: the node has no NodeMetric. */
    public static final NodeLoad NOT_FOUND = new NodeLoad(null);

    private final NodeMetricView metric;
    private long[] nodeDelta;
    private long[] prodDelta;
    private long[] nodeEstimated;
    private long[] prodUsage;
    private final List<String> nodeDeltaPods = new ArrayList<>();
    private final List<String> prodDeltaPods = new ArrayList<>();
    private final List<String> nodeEstimatedPods = new ArrayList<>();

    private NodeLoad(NodeMetricView metric) {
        this.metric = metric;
    }

    /** The load of a node with these pods and this metric (null metric: {@link #NOT_FOUND}). */
    public static NodeLoad of(
            List<AssignedPod> pods, NodeMetricView metric, int dimensions, boolean prodUsageIncludeSys) {
        if (metric == null) {
            return NOT_FOUND;
        }
        NodeLoad l = new NodeLoad(metric);
        l.nodeDelta = new long[dimensions];
        l.prodDelta = new long[dimensions];
        l.nodeEstimated = new long[dimensions];
        l.prodUsage = new long[dimensions];
        long updateTime = metric.updateTime() == null
                ? Long.MIN_VALUE / 2
                : metric.updateTime().toEpochMilli();
        for (AssignedPod p : pods) {
            NodeMetricView.PodUsage reported = metric.pod(p.key());
            long[] u = reported == null ? null : reported.usage();
            boolean reportedProd =
                    reported != null && PriorityClass.PROD.label().equals(reported.priority());
            if (p.prod() && reportedProd && u != null) {
                add(l.prodUsage, u);
            }
            long[] e = p.estimated();
            if (e == null) {
                continue;
            }
            // the metric may not show the pod's load yet: just scheduled, or still starting up
            boolean should = u == null
                    || updateTime - metric.reportIntervalMillis() < p.timestampMillis()
                    || p.deadlineMillis() != 0 && p.deadlineMillis() > updateTime;
            if (should && addMissing(l.nodeDelta, e, u)) {
                l.nodeDeltaPods.add(p.key());
            }
            add(l.nodeEstimated, e);
            l.nodeEstimatedPods.add(p.key());
            if (p.prod()) {
                long[] prodU = u;
                boolean prodShould = should;
                if (!reportedProd && u != null) {
                    // its usage is not in the prod usage: count all of its estimate
                    prodU = null;
                    prodShould = true;
                }
                if (prodShould && addMissing(l.prodDelta, e, prodU)) {
                    l.prodDeltaPods.add(p.key());
                }
            }
        }
        if (prodUsageIncludeSys && metric.systemUsage() != null) {
            add(l.prodUsage, metric.systemUsage());
        }
        return l;
    }

    private static void add(long[] into, long[] v) {
        for (int i = 0; i < into.length; i++) {
            into[i] += v[i];
        }
    }

    /** Adds what the estimate exceeds the usage by; whether that was anything (only such pods are listed). */
    private static boolean addMissing(long[] into, long[] estimate, long[] usage) {
        boolean any = false;
        for (int i = 0; i < into.length; i++) {
            long d = Math.max(0, estimate[i] - (usage == null ? 0 : usage[i]));
            into[i] += d;
            any |= d > 0;
        }
        return any;
    }

    public boolean found() {
        return metric != null;
    }

    public NodeMetricView metric() {
        return metric;
    }

    /**
     * The load already on the node: for prod pods the prod usage plus its delta; otherwise the
     * usage (aggregated of {@code aggregationType} over {@code aggregatedDurationMillis} when a type
     * is given) plus the delta, or the full estimates when the metric has no such usage.
     */
    public long[] existing(boolean prod, String aggregationType, long aggregatedDurationMillis) {
        if (prod) {
            return Vectorizer.plus(prodUsage, prodDelta);
        }
        long[] base;
        if (aggregationType != null && !aggregationType.isEmpty()) {
            base = metric.aggregated(aggregationType, aggregatedDurationMillis);
        } else {
            base = metric.nodeUsage();
        }
        return base != null ? Vectorizer.plus(base, nodeDelta) : nodeEstimated.clone();
    }

    public long[] nodeDelta() {
        return nodeDelta;
    }

    public long[] prodDelta() {
        return prodDelta;
    }

    public long[] nodeEstimated() {
        return nodeEstimated;
    }

    public long[] prodUsage() {
        return prodUsage;
    }

    public List<String> nodeDeltaPods() {
        return nodeDeltaPods;
    }

    public List<String> prodDeltaPods() {
        return prodDeltaPods;
    }

    public List<String> nodeEstimatedPods() {
        return nodeEstimatedPods;
    }
}
