package io.hotsched.plugins.defaults.podtopologyspread;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.hotsched.api.framework.ActionType;
import io.hotsched.api.framework.ClusterEvent;
import io.hotsched.api.framework.ClusterEventWithHint;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.EnqueueExtensions;
import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.ImmutableStateData;
import io.hotsched.api.framework.InvalidArgsException;
import io.hotsched.api.framework.LabelSelector;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeInfoLister;
import io.hotsched.api.framework.NodeScores;
import io.hotsched.api.framework.PluginArgs;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PreFilterResult;
import io.hotsched.api.framework.PreScorePlugin;
import io.hotsched.api.framework.QueueingHint;
import io.hotsched.api.framework.ScoreExtensions;
import io.hotsched.api.framework.ScorePlugin;
import io.hotsched.api.framework.StateData;
import io.hotsched.api.framework.StateKey;
import io.hotsched.api.framework.Status;
import io.hotsched.plugins.defaults.helper.CountingPreFilter;
import io.hotsched.plugins.defaults.helper.NodeChunks;
import io.hotsched.plugins.defaults.helper.NodeLabels;
import io.hotsched.plugins.defaults.helper.RequiredNodeAffinity;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Filter: placing the pod must keep each DoNotSchedule constraint's skew (matching pods in the
 * node's domain minus the emptiest domain) within maxSkew. Score: for ScheduleAnyway constraints,
 * nodes in domains with fewer matching pods score higher. Pods without constraints get the
 * default ones, spread over what selects them (Services, ReplicaSets ...).
 */
public final class PodTopologySpread
        implements CountingPreFilter<PodTopologySpread.PreFilterState>,
                PreScorePlugin,
                ScorePlugin,
                ScoreExtensions,
                EnqueueExtensions {

    public static final String NAME = "PodTopologySpread";
    public static final String ERR_REASON_CONSTRAINTS_NOT_MATCH =
            "node(s) didn't match pod topology spread constraints";
    public static final String ERR_REASON_NODE_LABEL_NOT_MATCH =
            ERR_REASON_CONSTRAINTS_NOT_MATCH + " (missing required label)";
    public static final String SYSTEM = "System";
    public static final String LIST = "List";
    static final String DO_NOT_SCHEDULE = "DoNotSchedule";
    static final String SCHEDULE_ANYWAY = "ScheduleAnyway";

    /** kube-scheduler's built-in defaults for pods without constraints. */
    static final List<TopologySpreadConstraint> SYSTEM_DEFAULTS =
            List.of(spec(3, NodeLabels.HOSTNAME, SCHEDULE_ANYWAY), spec(5, NodeLabels.ZONE, SCHEDULE_ANYWAY));

    private static TopologySpreadConstraint spec(int maxSkew, String key, String when) {
        TopologySpreadConstraint c = new TopologySpreadConstraint();
        c.setMaxSkew(maxSkew);
        c.setTopologyKey(key);
        c.setWhenUnsatisfiable(when);
        return c;
    }

    /** PodTopologySpreadArgs (v1). */
    public static final class Args {
        public String defaultingType;
        public List<TopologySpreadConstraint> defaultConstraints;
    }

    static PodTopologySpread create(PluginArgs args, Handle handle) throws InvalidArgsException {
        Args a = args.as(Args.class);
        String type = a.defaultingType == null ? SYSTEM : a.defaultingType;
        List<TopologySpreadConstraint> defaults = a.defaultConstraints == null ? List.of() : a.defaultConstraints;
        if (!type.equals(SYSTEM) && !type.equals(LIST)) {
            throw new InvalidArgsException("defaultingType", type, "Unsupported value: one of " + SYSTEM + ", " + LIST);
        }
        if (type.equals(SYSTEM) && !defaults.isEmpty()) {
            throw new InvalidArgsException(
                    "defaultConstraints",
                    "Invalid value: when .defaultingType is \"System\", .defaultConstraints must be empty");
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < defaults.size(); i++) {
            TopologySpreadConstraint c = defaults.get(i);
            String at = "defaultConstraints[" + i + "]";
            if (c.getMaxSkew() == null || c.getMaxSkew() <= 0) {
                throw new InvalidArgsException(at + ".maxSkew", c.getMaxSkew(), "must be greater than zero");
            }
            if (c.getTopologyKey() == null || c.getTopologyKey().isEmpty()) {
                throw new InvalidArgsException(at + ".topologyKey", "Required value: can not be empty");
            }
            if (!DO_NOT_SCHEDULE.equals(c.getWhenUnsatisfiable())
                    && !SCHEDULE_ANYWAY.equals(c.getWhenUnsatisfiable())) {
                throw new InvalidArgsException(
                        at + ".whenUnsatisfiable",
                        c.getWhenUnsatisfiable(),
                        "Unsupported value: one of " + DO_NOT_SCHEDULE + ", " + SCHEDULE_ANYWAY);
            }
            if (c.getLabelSelector() != null) {
                throw new InvalidArgsException(
                        at + ".labelSelector",
                        "Forbidden: constraint must not define a selector, as they deduced for each pod");
            }
            if (!seen.add(c.getTopologyKey() + "/" + c.getWhenUnsatisfiable())) {
                throw new InvalidArgsException(
                        at, "Duplicate value: {" + c.getTopologyKey() + ", " + c.getWhenUnsatisfiable() + "}");
            }
        }
        return new PodTopologySpread(
                handle, type.equals(SYSTEM) ? SYSTEM_DEFAULTS : List.copyOf(defaults), type.equals(SYSTEM));
    }

    /** Matching pods per domain for each DoNotSchedule constraint, and each one's emptiest eligible domain. */
    static final class PreFilterState implements StateData {
        final List<Constraint> constraints;
        final List<Map<String, long[]>> matchNum;
        final long[] globalMin;
        final RequiredNodeAffinity affinity;

        PreFilterState(
                List<Constraint> constraints, List<Map<String, long[]>> matchNum, RequiredNodeAffinity affinity) {
            this.constraints = constraints;
            this.matchNum = matchNum;
            this.affinity = affinity;
            this.globalMin = new long[constraints.size()];
            recomputeMins();
        }

        /** A domain stays once counted, at 0 too: it is still an eligible domain for the minimum. */
        static void count(Map<String, long[]> counts, String domain, long delta) {
            counts.computeIfAbsent(domain, d -> new long[1])[0] += delta;
        }

        /** Fewer eligible domains than minDomains counts as an empty domain somewhere: minimum 0. */
        void recomputeMins() {
            for (int i = 0; i < constraints.size(); i++) {
                Map<String, long[]> m = matchNum.get(i);
                long min = m.isEmpty() ? 0 : Long.MAX_VALUE;
                for (long[] n : m.values()) {
                    min = Math.min(min, n[0]);
                }
                globalMin[i] = m.size() < constraints.get(i).minDomains() ? 0 : min;
            }
        }

        @Override
        public StateData copy() {
            List<Map<String, long[]>> m = new ArrayList<>(matchNum.size());
            for (Map<String, long[]> x : matchNum) {
                Map<String, long[]> c = new HashMap<>();
                x.forEach((k, v) -> c.put(k, new long[] {v[0]}));
                m.add(c);
            }
            return new PreFilterState(constraints, m, affinity);
        }
    }

    /** Matching pods per topology pair over the candidate domains, and each constraint's weight. */
    record PreScoreState(
            List<Constraint> constraints,
            Set<String> ignoredNodes,
            List<Map<String, long[]>> pairCounts,
            double[] weights)
            implements ImmutableStateData {}

    static final StateKey<PreFilterState> PRE_FILTER_KEY = StateKey.of("PreFilter" + NAME, PreFilterState.class);
    static final StateKey<PreScoreState> PRE_SCORE_KEY = StateKey.of("PreScore" + NAME, PreScoreState.class);

    private final Handle handle;
    private final List<TopologySpreadConstraint> defaults;
    private final boolean systemDefaulted;

    PodTopologySpread(Handle handle, List<TopologySpreadConstraint> defaults, boolean systemDefaulted) {
        this.handle = handle;
        this.defaults = defaults;
        this.systemDefaulted = systemDefaulted;
    }

    @Override
    public String name() {
        return NAME;
    }

    /** The pod's constraints of one kind, or the defaults (with the selector of what selects the pod) when it has none. */
    private List<Constraint> constraints(PodInfo pod, String when) {
        var spec = pod.pod().getSpec();
        List<TopologySpreadConstraint> own = spec == null || spec.getTopologySpreadConstraints() == null
                ? List.of()
                : spec.getTopologySpreadConstraints();
        List<Constraint> out = new ArrayList<>();
        if (!own.isEmpty()) {
            for (TopologySpreadConstraint c : own) {
                if (when.equals(c.getWhenUnsatisfiable())) {
                    out.add(compile(c, LabelSelector.of(c.getLabelSelector()).and(matchLabelKeys(c, pod))));
                }
            }
            return out;
        }
        List<Constraint> fromDefaults = new ArrayList<>();
        List<LabelSelector.Requirement> selector = null;
        for (TopologySpreadConstraint c : defaults) {
            if (!when.equals(c.getWhenUnsatisfiable())) {
                continue;
            }
            if (selector == null) {
                selector = DefaultSelector.of(pod, handle);
                if (selector.isEmpty()) {
                    return List.of();
                }
            }
            fromDefaults.add(compile(c, LabelSelector.EVERYTHING.and(selector)));
        }
        return fromDefaults;
    }

    private static List<LabelSelector.Requirement> matchLabelKeys(TopologySpreadConstraint c, PodInfo pod) {
        if (c.getMatchLabelKeys() == null || c.getMatchLabelKeys().isEmpty()) {
            return List.of();
        }
        List<LabelSelector.Requirement> out = new ArrayList<>();
        for (String k : c.getMatchLabelKeys()) {
            String v = pod.labels().get(k);
            if (v != null) {
                out.add(new LabelSelector.Requirement(k, "In", Set.of(v)));
            }
        }
        return out;
    }

    private static Constraint compile(TopologySpreadConstraint c, LabelSelector selector) {
        return new Constraint(
                c.getMaxSkew() == null ? 1 : c.getMaxSkew(),
                c.getTopologyKey(),
                selector,
                c.getMinDomains() == null ? 1 : c.getMinDomains(),
                !"Ignore".equals(c.getNodeAffinityPolicy()),
                "Honor".equals(c.getNodeTaintsPolicy()));
    }

    // ---- PreFilter and Filter --------------------------------------------------------------

    private static List<Map<String, long[]>> domainCounts(int constraints) {
        List<Map<String, long[]>> m = new ArrayList<>(constraints);
        for (int i = 0; i < constraints; i++) {
            m.add(new HashMap<>());
        }
        return m;
    }

    /** Adds a chunk's counts per constraint and domain to {@code into}. */
    private static void addAll(List<Map<String, long[]>> into, List<Map<String, long[]>> chunk) {
        for (int i = 0; i < into.size(); i++) {
            Map<String, long[]> target = into.get(i);
            chunk.get(i).forEach((domain, n) -> PreFilterState.count(target, domain, n[0]));
        }
    }

    @Override
    public PreFilterResult preFilter(CycleState state, PodInfo pod, NodeInfoLister nodes) {
        List<Constraint> constraints = constraints(pod, DO_NOT_SCHEDULE);
        if (constraints.isEmpty()) {
            return PreFilterResult.SKIP;
        }
        RequiredNodeAffinity affinity = RequiredNodeAffinity.of(pod);
        List<List<Map<String, long[]>>> chunks = NodeChunks.run(
                handle.parallelizer(), nodes.list(), () -> domainCounts(constraints.size()), (matchNum, n) -> {
                    Node node = n.node();
                    if (node == null) {
                        return;
                    }
                    Map<String, String> labels = n.labels();
                    if (!Constraint.hasAllKeys(labels, constraints)) {
                        return;
                    }
                    for (int i = 0; i < constraints.size(); i++) {
                        Constraint c = constraints.get(i);
                        if (c.includes(pod, node, affinity)) {
                            PreFilterState.count(
                                    matchNum.get(i), labels.get(c.topologyKey()), c.count(n.pods(), pod.namespace()));
                        }
                    }
                });
        List<Map<String, long[]>> matchNum = chunks.get(0);
        for (int c = 1; c < chunks.size(); c++) {
            addAll(matchNum, chunks.get(c));
        }
        state.write(PRE_FILTER_KEY, new PreFilterState(constraints, matchNum, affinity));
        return PreFilterResult.ALL_NODES;
    }

    @Override
    public StateKey<PreFilterState> preFilterKey() {
        return PRE_FILTER_KEY;
    }

    @Override
    public Status update(PreFilterState s, PodInfo pod, PodInfo other, NodeInfo node, long delta) {
        Node n = node.node();
        if (n == null
                || !Constraint.hasAllKeys(node.labels(), s.constraints)
                || !other.namespace().equals(pod.namespace())) {
            return Status.SUCCESS;
        }
        for (int i = 0; i < s.constraints.size(); i++) {
            Constraint c = s.constraints.get(i);
            if (c.includes(pod, n, s.affinity) && c.selector().matches(other.labels())) {
                PreFilterState.count(s.matchNum.get(i), node.labels().get(c.topologyKey()), delta);
            }
        }
        s.recomputeMins();
        return Status.SUCCESS;
    }

    @Override
    public Status filter(PreFilterState s, PodInfo pod, NodeInfo node) {
        Map<String, String> labels = node.labels();
        for (int i = 0; i < s.constraints.size(); i++) {
            Constraint c = s.constraints.get(i);
            String value = labels.get(c.topologyKey());
            if (value == null) {
                return Status.unresolvable(ERR_REASON_NODE_LABEL_NOT_MATCH);
            }
            long self = c.selector().matches(pod.labels()) ? 1 : 0;
            long[] match = s.matchNum.get(i).get(value);
            long skew = (match == null ? 0 : match[0]) + self - s.globalMin[i];
            if (skew > c.maxSkew()) {
                return Status.unschedulable(ERR_REASON_CONSTRAINTS_NOT_MATCH);
            }
        }
        return Status.SUCCESS;
    }

    // ---- PreScore, Score, NormalizeScore ---------------------------------------------------

    @Override
    public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> candidates) {
        List<NodeInfo> all = handle.snapshot().list();
        if (candidates.isEmpty() || all.isEmpty()) {
            return Status.SKIP;
        }
        List<Constraint> constraints = constraints(pod, SCHEDULE_ANYWAY);
        if (constraints.isEmpty()) {
            return Status.SKIP;
        }
        // only the system defaults let nodes without a zone label still spread by hostname
        var spec = pod.pod().getSpec();
        boolean requireAllKeys = spec != null
                        && spec.getTopologySpreadConstraints() != null
                        && !spec.getTopologySpreadConstraints().isEmpty()
                || !systemDefaulted;
        Set<String> ignored = new HashSet<>();
        List<Map<String, long[]>> pairCounts = new ArrayList<>(constraints.size());
        for (int i = 0; i < constraints.size(); i++) {
            pairCounts.add(new HashMap<>());
        }
        for (int nI = 0, nN = candidates.size(); nI < nN; nI++) {
            NodeInfo n = candidates.get(nI);
            Map<String, String> labels = n.labels();
            if (requireAllKeys && !Constraint.hasAllKeys(labels, constraints)) {
                ignored.add(n.name());
                continue;
            }
            for (int i = 0; i < constraints.size(); i++) {
                String key = constraints.get(i).topologyKey();
                if (!key.equals(NodeLabels.HOSTNAME)) {
                    pairCounts.get(i).computeIfAbsent(labels.getOrDefault(key, ""), v -> new long[1]);
                }
            }
        }
        double[] weights = new double[constraints.size()];
        for (int i = 0; i < constraints.size(); i++) {
            int size = constraints.get(i).topologyKey().equals(NodeLabels.HOSTNAME)
                    ? candidates.size() - ignored.size()
                    : pairCounts.get(i).size();
            weights[i] = Math.log(size + 2);
        }
        RequiredNodeAffinity affinity = RequiredNodeAffinity.of(pod);
        // each chunk counts into its own maps, only the domains of the candidates (read-only here)
        List<List<Map<String, long[]>>> chunks =
                NodeChunks.run(handle.parallelizer(), all, () -> domainCounts(constraints.size()), (counts, n) -> {
                    Node node = n.node();
                    if (node == null) {
                        return;
                    }
                    Map<String, String> labels = n.labels();
                    if (requireAllKeys && !Constraint.hasAllKeys(labels, constraints)) {
                        return;
                    }
                    for (int i = 0; i < constraints.size(); i++) {
                        Constraint c = constraints.get(i);
                        String domain = labels.getOrDefault(c.topologyKey(), "");
                        if (c.includes(pod, node, affinity) && pairCounts.get(i).containsKey(domain)) {
                            PreFilterState.count(counts.get(i), domain, c.count(n.pods(), pod.namespace()));
                        }
                    }
                });
        for (List<Map<String, long[]>> chunk : chunks) {
            addAll(pairCounts, chunk);
        }
        state.write(PRE_SCORE_KEY, new PreScoreState(constraints, ignored, pairCounts, weights));
        return Status.SUCCESS;
    }

    @Override
    public long score(CycleState state, PodInfo pod, NodeInfo node) {
        PreScoreState s = state.readOrNull(PRE_SCORE_KEY);
        if (s == null || s.ignoredNodes().contains(node.name())) {
            return 0;
        }
        Map<String, String> labels = node.labels();
        double score = 0;
        for (int i = 0; i < s.constraints().size(); i++) {
            Constraint c = s.constraints().get(i);
            String value = labels.get(c.topologyKey());
            if (value == null) {
                continue;
            }
            long count;
            if (c.topologyKey().equals(NodeLabels.HOSTNAME)) {
                count = c.count(node.pods(), pod.namespace());
            } else {
                long[] n = s.pairCounts().get(i).get(value);
                count = n == null ? 0 : n[0];
            }
            score += count * s.weights()[i] + (c.maxSkew() - 1);
        }
        return Math.round(score);
    }

    @Override
    public ScoreExtensions scoreExtensions() {
        return this;
    }

    @Override
    public Status normalizeScore(CycleState state, PodInfo pod, NodeScores scores) {
        PreScoreState s = state.readOrNull(PRE_SCORE_KEY);
        if (s == null) {
            return Status.SUCCESS;
        }
        long min = Long.MAX_VALUE;
        long max = 0;
        for (int i = 0; i < scores.size(); i++) {
            if (!s.ignoredNodes().contains(scores.nodeName(i))) {
                min = Math.min(min, scores.score(i));
                max = Math.max(max, scores.score(i));
            }
        }
        for (int i = 0; i < scores.size(); i++) {
            if (s.ignoredNodes().contains(scores.nodeName(i))) {
                scores.set(i, 0);
            } else if (max == 0) {
                scores.set(i, 100);
            } else {
                scores.set(i, 100 * (max + min - scores.score(i)) / max);
            }
        }
        return Status.SUCCESS;
    }

    @Override
    public List<ClusterEventWithHint> eventsToRegister() {
        return List.of(
                new ClusterEventWithHint(
                        ClusterEvent.of(
                                ClusterEvent.POD, ActionType.ADD, ActionType.UPDATE_POD_LABEL, ActionType.DELETE),
                        this::afterPodChange),
                new ClusterEventWithHint(
                        ClusterEvent.of(
                                ClusterEvent.NODE,
                                ActionType.ADD,
                                ActionType.DELETE,
                                ActionType.UPDATE_NODE_LABEL,
                                ActionType.UPDATE_NODE_TAINT),
                        this::afterNodeChange));
    }

    /** Both kinds of the pod's constraints: either may have rejected it or may change its place. */
    private List<Constraint> allConstraints(PodInfo pod) {
        List<Constraint> all = new ArrayList<>(constraints(pod, DO_NOT_SCHEDULE));
        all.addAll(constraints(pod, SCHEDULE_ANYWAY));
        return all;
    }

    /** A node (added, changed or deleted) counts only if it carries every topology key of the pod's constraints. */
    QueueingHint afterNodeChange(PodInfo pod, Object oldObject, Object newObject) {
        Node before = (Node) oldObject;
        Node after = (Node) newObject;
        Node node = after != null ? after : before;
        return Constraint.hasAllKeys(NodeLabels.of(node), allConstraints(pod)) ? QueueingHint.QUEUE : QueueingHint.SKIP;
    }

    /**
     * A bound pod of the pod's namespace that a constraint selects was added or deleted, or its
     * labels changed whether a constraint selects it.
     */
    QueueingHint afterPodChange(PodInfo pod, Object oldObject, Object newObject) {
        PodInfo before = oldObject == null ? null : PodInfo.of((Pod) oldObject);
        PodInfo after = newObject == null ? null : PodInfo.of((Pod) newObject);
        for (PodInfo p : new PodInfo[] {before, after}) {
            if (p != null
                    && (p.nodeName() == null
                            || p.nodeName().isEmpty()
                            || !p.namespace().equals(pod.namespace()))) {
                return QueueingHint.SKIP;
            }
        }
        List<Constraint> constraints = allConstraints(pod);
        for (Constraint c : constraints) {
            boolean selectedBefore = before != null && c.selector().matches(before.labels());
            boolean selectedAfter = after != null && c.selector().matches(after.labels());
            if (before != null && after != null ? selectedBefore != selectedAfter : selectedBefore || selectedAfter) {
                return QueueingHint.QUEUE;
            }
        }
        return QueueingHint.SKIP;
    }
}
