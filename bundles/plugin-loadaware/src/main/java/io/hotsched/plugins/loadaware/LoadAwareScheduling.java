package io.hotsched.plugins.loadaware;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.hotsched.api.framework.ActionType;
import io.hotsched.api.framework.ClusterEvent;
import io.hotsched.api.framework.ClusterEventWithHint;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.EnqueueExtensions;
import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.ImmutableStateData;
import io.hotsched.api.framework.InvalidArgsException;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeInfoLister;
import io.hotsched.api.framework.PluginArgs;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PreFilterPlugin;
import io.hotsched.api.framework.PreFilterResult;
import io.hotsched.api.framework.ReservePlugin;
import io.hotsched.api.framework.ScorePlugin;
import io.hotsched.api.framework.StateDescriber;
import io.hotsched.api.framework.StateKey;
import io.hotsched.api.framework.Status;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Koordinator's LoadAwareScheduling: Filter rejects nodes whose measured usage (NodeMetric) plus
 * the estimated usage of the pods placed since, plus the incoming pod's, would cross the usage
 * thresholds; Score prefers the least loaded nodes. One instance per profile. See
 * docs/plugin-loadaware.md.
 */
public final class LoadAwareScheduling
        implements PreFilterPlugin, FilterPlugin, ScorePlugin, ReservePlugin, EnqueueExtensions, StateDescriber {

    public static final String NAME = "LoadAwareScheduling";
    public static final String ERR_EXPIRED = "node(s) nodeMetric expired";

    /** The kind the cluster connection reports NodeMetrics as. */
    public static final String NODE_METRIC = "NodeMetric";

    static String errUsage(String resource, boolean aggregated) {
        return "node(s) " + resource + (aggregated ? " aggregated" : "") + " usage exceed threshold";
    }

    static final String RESERVE_POD_ANNOTATION = "scheduling.koordinator.sh/reserve-pod";

    /** The incoming pod's estimate, made once per attempt (upstream's IncomingPodEstimatedLoadAwareScheduling). */
    record Incoming(long[] estimate) implements ImmutableStateData {}

    static final StateKey<Incoming> INCOMING = StateKey.of("IncomingPodEstimated" + NAME, Incoming.class);

    /** A node's load, valid while the node's pods and its NodeMetric stay the same. */
    private record Cached(long generation, HasMetadata metric, NodeLoad load) {}

    private final LoadAwareArgs args;
    private final Handle handle;
    private final Vectorizer vectorizer;
    private final Estimator estimator;
    private final long[] weights;
    private final Map<String, Cached> loads = new ConcurrentHashMap<>();
    private final Map<String, NodeMetricView> metrics = new ConcurrentHashMap<>();
    // when this instance first saw a pod that has no PodScheduled time yet (placed by this scheduler)
    private final Map<String, Long> firstSeen = new ConcurrentHashMap<>();

    static LoadAwareScheduling create(PluginArgs args, Handle handle) throws InvalidArgsException {
        return new LoadAwareScheduling(LoadAwareArgs.defaulted(args.as(Args.class)), handle);
    }

    public LoadAwareScheduling(LoadAwareArgs args, Handle handle) {
        this.args = args;
        this.handle = handle;
        this.vectorizer = new Vectorizer(args.resourceNames());
        this.estimator = new Estimator(args, vectorizer);
        long[] w = vectorizer.ofAmounts(args.resourceWeights());
        this.weights = args.dominantResourceWeight() == 0 && Vectorizer.isZero(w) ? null : w;
    }

    @Override
    public String name() {
        return NAME;
    }

    public Vectorizer vectorizer() {
        return vectorizer;
    }

    public Estimator estimator() {
        return estimator;
    }

    @Override
    public PreFilterResult preFilter(CycleState state, PodInfo pod, NodeInfoLister nodes) {
        state.write(INCOMING, new Incoming(estimator.estimatePod(pod.pod())));
        return PreFilterResult.ALL_NODES;
    }

    private long[] incoming(CycleState state, PodInfo pod) {
        Incoming in = state.read(INCOMING).orElse(null);
        return in != null ? in.estimate() : estimator.estimatePod(pod.pod());
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo nodeInfo) {
        Node node = nodeInfo.node();
        if (node == null) {
            return Status.error("node not found");
        }
        if (ownedByDaemonSet(pod.pod())) {
            return Status.SUCCESS;
        }
        UsageProfile profile = UsageProfile.of(args, node);
        boolean prodPod = !profile.prodUsageThresholds().isEmpty() && PriorityClass.of(pod.pod()) == PriorityClass.PROD;
        boolean aggregated = !prodPod && profile.aggregated();
        Map<String, Long> thresholds = prodPod
                ? profile.prodUsageThresholds()
                : aggregated ? profile.aggregatedThresholds() : profile.usageThresholds();
        if (thresholds.values().stream().allMatch(t -> t == 0)) {
            return Status.SUCCESS;
        }
        long[] allocatable = vectorizer.ofQuantities(estimator.estimateNode(node));
        NodeLoad load = load(nodeInfo);
        if (!load.found()) {
            return Status.SUCCESS;
        }
        NodeMetricView metric = load.metric();
        if (args.filterExpiredNodeMetrics()
                && metric.expired(handle.clock().instant(), args.nodeMetricExpirationSeconds())) {
            return args.enableScheduleWhenNodeMetricsExpired() ? Status.SUCCESS : Status.unschedulable(ERR_EXPIRED);
        }
        if (!metric.hasNodeMetric()) {
            return Status.SUCCESS;
        }
        long[] existing = aggregated
                ? load.existing(false, profile.aggregationType(), profile.aggregatedDurationMillis())
                : load.existing(prodPod, null, 0);
        long[] estimated = Vectorizer.plus(existing, incoming(state, pod));
        List<String> names = vectorizer.names();
        for (int i = 0; i < names.size(); i++) {
            long threshold = thresholds.getOrDefault(names.get(i), 0L);
            if (threshold <= 0 || allocatable[i] <= 0) {
                continue;
            }
            long usage = Math.round((double) estimated[i] / allocatable[i] * 100);
            if (usage > threshold) {
                return Status.unschedulable(errUsage(names.get(i), aggregated));
            }
        }
        return Status.SUCCESS;
    }

    @Override
    public long score(CycleState state, PodInfo pod, NodeInfo nodeInfo) {
        Node node = nodeInfo.node();
        if (weights == null || node == null) {
            return 0;
        }
        boolean prodPod = args.scoreAccordingProdUsage() && PriorityClass.of(pod.pod()) == PriorityClass.PROD;
        String aggType = !prodPod && !args.scoreAggregationType().isEmpty() ? args.scoreAggregationType() : null;
        NodeLoad load = load(nodeInfo);
        if (!load.found()
                || load.metric().expired(handle.clock().instant(), args.nodeMetricExpirationSeconds())
                || !load.metric().hasNodeMetric()) {
            return 0;
        }
        long[] allocatable = vectorizer.ofQuantities(estimator.estimateNode(node));
        long[] used = Vectorizer.plus(
                load.existing(prodPod, aggType, aggType == null ? 0 : args.scoreAggregatedDurationMillis()),
                incoming(state, pod));
        long sum = 0;
        long weightSum = 0;
        long min = Long.MAX_VALUE;
        for (int i = 0; i < used.length; i++) {
            long s = leastUsed(used[i], allocatable[i]);
            sum += s * weights[i];
            weightSum += weights[i];
            min = Math.min(min, s);
        }
        long dominant = args.dominantResourceWeight();
        if (dominant != 0) {
            sum += dominant * (min == Long.MAX_VALUE ? 0 : min);
            weightSum += dominant;
        }
        return weightSum <= 0 ? 0 : sum / weightSum;
    }

    private static long leastUsed(long used, long capacity) {
        if (capacity == 0 || used > capacity) {
            return 0;
        }
        return (capacity - used) * 100 / capacity;
    }

    @Override
    public Status reserve(CycleState state, PodInfo pod, String nodeName) {
        firstSeen.putIfAbsent(pod.uid(), handle.clock().millis());
        return Status.SUCCESS;
    }

    @Override
    public void unreserve(CycleState state, PodInfo pod, String nodeName) {
        firstSeen.remove(pod.uid());
    }

    @Override
    public List<ClusterEventWithHint> eventsToRegister() {
        return List.of(
                ClusterEventWithHint.of(ClusterEvent.of(ClusterEvent.POD, ActionType.DELETE)),
                ClusterEventWithHint.of(
                        ClusterEvent.of(NODE_METRIC, ActionType.ADD, ActionType.UPDATE, ActionType.DELETE)));
    }

    /** The node's load, recomputed only when its pods or its NodeMetric changed. */
    public NodeLoad load(NodeInfo nodeInfo) {
        HasMetadata metricObject = handle.object(NODE_METRIC, null, nodeInfo.name());
        Cached c = loads.get(nodeInfo.name());
        if (c != null
                && c.generation() == nodeInfo.generation()
                && c.metric() == metricObject
                && nodeInfo.generation() != 0) {
            return c.load();
        }
        NodeMetricView metric = metricObject == null ? null : metricView(nodeInfo.name(), metricObject);
        NodeLoad load = NodeLoad.of(assigned(nodeInfo), metric, vectorizer.size(), args.prodUsageIncludeSys());
        loads.put(nodeInfo.name(), new Cached(nodeInfo.generation(), metricObject, load));
        return load;
    }

    private NodeMetricView metricView(String node, HasMetadata object) {
        NodeMetricView v = metrics.get(node);
        if (v == null || v.source() != object) {
            v = NodeMetricView.of(object, vectorizer);
            metrics.put(node, v);
        }
        return v;
    }

    /** The pods on the node that count: not reservation placeholders, not finished. */
    public List<AssignedPod> assigned(NodeInfo nodeInfo) {
        List<AssignedPod> out = new ArrayList<>(nodeInfo.pods().size());
        for (PodInfo p : nodeInfo.pods()) {
            AssignedPod a = assigned(p.pod(), p.uid(), p.key());
            if (a != null) {
                out.add(a);
            }
        }
        return out;
    }

    /** How the load computation sees one pod; null for a pod it leaves out. */
    public AssignedPod assigned(Pod pod, String uid, String key) {
        return assign(
                pod,
                uid,
                key,
                estimator,
                () -> firstSeen.computeIfAbsent(uid, u -> handle.clock().millis()));
    }

    /**
     * How the load computation sees one pod, with {@code unscheduledTime} when it has no
     * PodScheduled time; null for a pod it leaves out (finished, or a reservation placeholder).
     */
    public static AssignedPod assign(
            Pod pod, String uid, String key, Estimator estimator, LongSupplier unscheduledTime) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
            return null;
        }
        Map<String, String> annotations =
                pod.getMetadata() == null ? null : pod.getMetadata().getAnnotations();
        if (annotations != null && "true".equals(annotations.get(RESERVE_POD_ANNOTATION))) {
            return null;
        }
        Instant scheduled = Estimator.conditionTime(pod, "PodScheduled");
        long timestamp = scheduled != null ? scheduled.toEpochMilli() : unscheduledTime.getAsLong();
        long[] e = estimator.estimatePod(pod);
        return new AssignedPod(
                uid,
                key,
                PriorityClass.of(pod) == PriorityClass.PROD,
                Vectorizer.isZero(e) ? null : e,
                timestamp,
                estimator.deadline(pod, timestamp));
    }

    /**
     * Per node: the NodeMetric's time, the usage, the estimates and deltas, and (for one node) each
     * counted pod with its estimate and whether it is in the delta.
     */
    @Override
    public Map<String, Object> describeState(String node) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (NodeInfo n : handle.snapshot().list()) {
            if (node != null && !node.equals(n.name())) {
                continue;
            }
            NodeLoad load = load(n);
            if (node == null && !load.found() && n.pods().isEmpty()) {
                continue;
            }
            out.put(
                    n.name(),
                    StateView.of(
                            load,
                            assigned(n),
                            vectorizer,
                            handle.clock().instant(),
                            args.nodeMetricExpirationSeconds(),
                            node != null));
        }
        if (node != null && out.isEmpty()) {
            out.put(node, "no such node in the scheduler's snapshot");
        }
        return out;
    }

    private static boolean ownedByDaemonSet(Pod pod) {
        if (pod.getMetadata() == null || pod.getMetadata().getOwnerReferences() == null) {
            return false;
        }
        for (OwnerReference o : pod.getMetadata().getOwnerReferences()) {
            if ("DaemonSet".equals(o.getKind())) {
                return true;
            }
        }
        return false;
    }
}
