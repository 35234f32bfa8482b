package io.hotsched.plugins.defaults.interpodaffinity;

import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodAffinity;
import io.fabric8.kubernetes.api.model.PodAffinityTerm;
import io.fabric8.kubernetes.api.model.PodAntiAffinity;
import io.fabric8.kubernetes.api.model.WeightedPodAffinityTerm;
import io.hotsched.api.framework.ActionType;
import io.hotsched.api.framework.AffinityTerm;
import io.hotsched.api.framework.ClusterEvent;
import io.hotsched.api.framework.ClusterEventWithHint;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.EnqueueExtensions;
import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.ImmutableStateData;
import io.hotsched.api.framework.InvalidArgsException;
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
import io.hotsched.plugins.defaults.helper.SelectorValidation;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Filter: the pod's required pod affinity and anti-affinity, and the required anti-affinity of the
 * pods already placed. Score: the weights of preferred terms (the pod's, and the placed pods'
 * towards it, with their required affinity at {@code hardPodAffinityWeight}) per topology domain,
 * normalized to the highest and lowest node.
 */
public final class InterPodAffinity
        implements CountingPreFilter<InterPodAffinity.PreFilterState>,
                PreScorePlugin,
                ScorePlugin,
                ScoreExtensions,
                EnqueueExtensions {

    public static final String NAME = "InterPodAffinity";
    public static final String ERR_REASON_AFFINITY = "node(s) didn't match pod affinity rules";
    public static final String ERR_REASON_ANTI_AFFINITY = "node(s) didn't match pod anti-affinity rules";
    public static final String ERR_REASON_EXISTING_ANTI_AFFINITY =
            "node(s) didn't satisfy existing pods anti-affinity rules";
    static final int MAX_HARD_POD_AFFINITY_WEIGHT = 100;

    /** InterPodAffinityArgs (v1). */
    public static final class Args {
        public Integer hardPodAffinityWeight;
        public boolean ignorePreferredTermsOfExistingPods;
    }

    static InterPodAffinity create(PluginArgs args, Handle handle) throws InvalidArgsException {
        Args a = args.as(Args.class);
        int hard = a.hardPodAffinityWeight == null ? 1 : a.hardPodAffinityWeight;
        if (hard < 0 || hard > MAX_HARD_POD_AFFINITY_WEIGHT) {
            throw new InvalidArgsException(
                    "hardPodAffinityWeight", hard, "must be in the range [0, " + MAX_HARD_POD_AFFINITY_WEIGHT + "]");
        }
        return new InterPodAffinity(handle, hard, a.ignorePreferredTermsOfExistingPods);
    }

    /** What Filter needs, counted once per cycle over all nodes; updated when preemption adds or removes pods. */
    static final class PreFilterState implements StateData {
        final TopologyCounts existingAntiAffinity;
        final TopologyCounts affinity;
        final TopologyCounts antiAffinity;

        PreFilterState(TopologyCounts existingAntiAffinity, TopologyCounts affinity, TopologyCounts antiAffinity) {
            this.existingAntiAffinity = existingAntiAffinity;
            this.affinity = affinity;
            this.antiAffinity = antiAffinity;
        }

        PreFilterState() {
            this(new TopologyCounts(false), new TopologyCounts(false), new TopologyCounts(false));
        }

        void addAll(PreFilterState other) {
            existingAntiAffinity.addAll(other.existingAntiAffinity);
            affinity.addAll(other.affinity);
            antiAffinity.addAll(other.antiAffinity);
        }

        @Override
        public StateData copy() {
            return new PreFilterState(existingAntiAffinity.copy(), affinity.copy(), antiAffinity.copy());
        }
    }

    /** The score of each topology pair, summed once per cycle. */
    record PreScoreState(TopologyCounts scores) implements ImmutableStateData {}

    static final StateKey<PreFilterState> PRE_FILTER_KEY = StateKey.of("PreFilter" + NAME, PreFilterState.class);
    static final StateKey<PreScoreState> PRE_SCORE_KEY = StateKey.of("PreScore" + NAME, PreScoreState.class);

    private final Handle handle;
    private final int hardPodAffinityWeight;
    private final boolean ignorePreferredTermsOfExistingPods;

    InterPodAffinity(Handle handle, int hardPodAffinityWeight, boolean ignorePreferredTermsOfExistingPods) {
        this.handle = handle;
        this.hardPodAffinityWeight = hardPodAffinityWeight;
        this.ignorePreferredTermsOfExistingPods = ignorePreferredTermsOfExistingPods;
    }

    @Override
    public String name() {
        return NAME;
    }

    private boolean matches(AffinityTerm term, PodInfo pod) {
        // the namespace's labels are looked up only when the namespace selector decides
        if (term.namespaces().contains(pod.namespace())
                || term.namespaceSelector().matchesNothing()) {
            return term.matches(pod, Map.of());
        }
        return term.matches(pod, handle.namespaceLabels(pod.namespace()));
    }

    private boolean matchesAll(List<AffinityTerm> terms, PodInfo pod) {
        for (int i = 0; i < terms.size(); i++) {
            if (!matches(terms.get(i), pod)) {
                return false;
            }
        }
        return true;
    }

    // ---- PreFilter and Filter --------------------------------------------------------------

    @Override
    public PreFilterResult preFilter(CycleState state, PodInfo pod, NodeInfoLister nodes) {
        String error = termsError(pod, false);
        if (error != null) {
            return PreFilterResult.of(Status.unresolvable("parsing pod: requiredAffinityTerms: " + error));
        }
        boolean incomingTerms = !pod.requiredAffinityTerms().isEmpty()
                || !pod.requiredAntiAffinityTerms().isEmpty();
        // without terms of its own, only nodes whose pods have required anti-affinity matter (upstream's list)
        List<NodeInfo> walk = incomingTerms ? nodes.list() : nodes.havePodsWithRequiredAntiAffinityList();
        List<PreFilterState> chunks = NodeChunks.run(handle.parallelizer(), walk, PreFilterState::new, (s, n) -> {
            for (int existingI = 0, existingN = n.podsWithRequiredAntiAffinity().size();
                    existingI < existingN;
                    existingI++) {
                countExistingAntiAffinity(
                        s, pod, n.podsWithRequiredAntiAffinity().get(existingI), n, 1);
            }
            if (incomingTerms) {
                for (int existingI = 0, existingN = n.pods().size(); existingI < existingN; existingI++) {
                    countIncoming(s, pod, n.pods().get(existingI), n, 1);
                }
            }
        });
        PreFilterState s = chunks.get(0);
        for (int i = 1; i < chunks.size(); i++) {
            s.addAll(chunks.get(i));
        }
        if (!incomingTerms && s.existingAntiAffinity.isEmpty()) {
            return PreFilterResult.SKIP;
        }
        state.write(PRE_FILTER_KEY, s);
        return PreFilterResult.ALL_NODES;
    }

    private void countExistingAntiAffinity(
            PreFilterState s, PodInfo incoming, PodInfo existing, NodeInfo node, long delta) {
        Map<String, String> labels = node.labels();
        for (int tI = 0, tN = existing.requiredAntiAffinityTerms().size(); tI < tN; tI++) {
            AffinityTerm t = existing.requiredAntiAffinityTerms().get(tI);
            String v = labels.get(t.topologyKey());
            if (v != null && matches(t, incoming)) {
                s.existingAntiAffinity.add(t.topologyKey(), v, delta);
            }
        }
    }

    private void countIncoming(PreFilterState s, PodInfo incoming, PodInfo existing, NodeInfo node, long delta) {
        Map<String, String> labels = node.labels();
        List<AffinityTerm> affinity = incoming.requiredAffinityTerms();
        if (!affinity.isEmpty() && matchesAll(affinity, existing)) {
            for (int tI = 0, tN = affinity.size(); tI < tN; tI++) {
                AffinityTerm t = affinity.get(tI);
                String v = labels.get(t.topologyKey());
                if (v != null) {
                    s.affinity.add(t.topologyKey(), v, delta);
                }
            }
        }
        for (int tI = 0, tN = incoming.requiredAntiAffinityTerms().size(); tI < tN; tI++) {
            AffinityTerm t = incoming.requiredAntiAffinityTerms().get(tI);
            String v = labels.get(t.topologyKey());
            if (v != null && matches(t, existing)) {
                s.antiAffinity.add(t.topologyKey(), v, delta);
            }
        }
    }

    @Override
    public StateKey<PreFilterState> preFilterKey() {
        return PRE_FILTER_KEY;
    }

    @Override
    public Status update(PreFilterState s, PodInfo incoming, PodInfo other, NodeInfo node, long delta) {
        countExistingAntiAffinity(s, incoming, other, node, delta);
        countIncoming(s, incoming, other, node, delta);
        return Status.SUCCESS;
    }

    @Override
    public Status filter(PreFilterState s, PodInfo pod, NodeInfo node) {
        Map<String, String> labels = node.labels();
        if (!satisfiesAffinity(s, pod, labels)) {
            return Status.unresolvable(ERR_REASON_AFFINITY);
        }
        for (int tI = 0, tN = pod.requiredAntiAffinityTerms().size(); tI < tN; tI++) {
            AffinityTerm t = pod.requiredAntiAffinityTerms().get(tI);
            if (s.antiAffinity.get(t.topologyKey(), labels.get(t.topologyKey())) > 0) {
                return Status.unschedulable(ERR_REASON_ANTI_AFFINITY);
            }
        }
        if (!s.existingAntiAffinity.isEmpty() && s.existingAntiAffinity.anyPositive(labels)) {
            return Status.unschedulable(ERR_REASON_EXISTING_ANTI_AFFINITY);
        }
        return Status.SUCCESS;
    }

    private boolean satisfiesAffinity(PreFilterState s, PodInfo pod, Map<String, String> labels) {
        boolean podsExist = true;
        for (int tI = 0, tN = pod.requiredAffinityTerms().size(); tI < tN; tI++) {
            AffinityTerm t = pod.requiredAffinityTerms().get(tI);
            String v = labels.get(t.topologyKey());
            if (v == null) {
                return false;
            }
            if (s.affinity.get(t.topologyKey(), v) <= 0) {
                podsExist = false;
            }
        }
        if (podsExist) {
            return true;
        }
        // the first pod of a group with affinity to itself may go anywhere its keys exist
        return s.affinity.isEmpty() && matchesAll(pod.requiredAffinityTerms(), pod);
    }

    // ---- PreScore, Score, NormalizeScore ---------------------------------------------------

    @Override
    public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
        if (nodes.isEmpty()) {
            return Status.SKIP;
        }
        boolean hasPreferred = !pod.preferredAffinityTerms().isEmpty()
                || !pod.preferredAntiAffinityTerms().isEmpty();
        if (ignorePreferredTermsOfExistingPods && !hasPreferred) {
            return Status.SKIP;
        }
        String error = termsError(pod, true);
        if (error != null) {
            return Status.error(error);
        }
        // without preferred terms of its own, only nodes whose pods have affinity terms can score (upstream's list)
        List<NodeInfo> walk =
                hasPreferred ? handle.snapshot().list() : handle.snapshot().havePodsWithAffinityList();
        List<TopologyCounts> chunks =
                NodeChunks.run(handle.parallelizer(), walk, () -> new TopologyCounts(true), (scores, n) -> {
                    List<PodInfo> existing = hasPreferred ? n.pods() : n.podsWithAffinity();
                    for (int existingI = 0, existingN = existing.size(); existingI < existingN; existingI++) {
                        scoreExisting(scores, pod, existing.get(existingI), n.labels());
                    }
                });
        TopologyCounts scores = chunks.get(0);
        for (int i = 1; i < chunks.size(); i++) {
            scores.addAll(chunks.get(i));
        }
        if (scores.isEmpty()) {
            return Status.SKIP;
        }
        state.write(PRE_SCORE_KEY, new PreScoreState(scores));
        return Status.SUCCESS;
    }

    private void scoreExisting(
            TopologyCounts scores, PodInfo incoming, PodInfo existing, Map<String, String> nodeLabels) {
        if (nodeLabels.isEmpty()) {
            return;
        }
        add(scores, incoming.preferredAffinityTerms(), existing, nodeLabels, 1, false);
        add(scores, incoming.preferredAntiAffinityTerms(), existing, nodeLabels, -1, false);
        if (hardPodAffinityWeight > 0) {
            add(scores, existing.requiredAffinityTerms(), incoming, nodeLabels, hardPodAffinityWeight, true);
        }
        if (!ignorePreferredTermsOfExistingPods) {
            add(scores, existing.preferredAffinityTerms(), incoming, nodeLabels, 1, false);
            add(scores, existing.preferredAntiAffinityTerms(), incoming, nodeLabels, -1, false);
        }
    }

    /** Adds each term's weight (times {@code sign}), or {@code sign} itself for required terms, where the term selects {@code pod}. */
    private void add(
            TopologyCounts scores,
            List<AffinityTerm> terms,
            PodInfo pod,
            Map<String, String> nodeLabels,
            long sign,
            boolean fixedWeight) {
        for (int tI = 0, tN = terms.size(); tI < tN; tI++) {
            AffinityTerm t = terms.get(tI);
            if (t.topologyKey() == null || t.topologyKey().isEmpty()) {
                continue;
            }
            String v = nodeLabels.get(t.topologyKey());
            if (v != null && matches(t, pod)) {
                scores.add(t.topologyKey(), v, fixedWeight ? sign : sign * t.weight());
            }
        }
    }

    @Override
    public long score(CycleState state, PodInfo pod, NodeInfo node) {
        PreScoreState s = state.readOrNull(PRE_SCORE_KEY);
        return s == null ? 0 : s.scores().sumFor(node.labels());
    }

    @Override
    public ScoreExtensions scoreExtensions() {
        return this;
    }

    @Override
    public Status normalizeScore(CycleState state, PodInfo pod, NodeScores scores) {
        if (state.read(PRE_SCORE_KEY).isEmpty() || scores.size() == 0) {
            return Status.SUCCESS;
        }
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int i = 0; i < scores.size(); i++) {
            min = Math.min(min, scores.score(i));
            max = Math.max(max, scores.score(i));
        }
        long diff = max - min;
        for (int i = 0; i < scores.size(); i++) {
            double f = diff > 0 ? 100.0 * ((double) (scores.score(i) - min) / diff) : 0;
            scores.set(i, (long) f);
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
                        ClusterEvent.of(ClusterEvent.NODE, ActionType.ADD, ActionType.UPDATE_NODE_LABEL),
                        InterPodAffinity::afterNodeChange));
    }

    /**
     * A pod event helps when the pod itself changed (its labels decide how others' anti-affinity
     * sees it), or a bound pod now meets every required affinity term, stops meeting a required
     * anti-affinity term, or, deleted, met one or had an anti-affinity term the pod meets.
     */
    QueueingHint afterPodChange(PodInfo pod, Object oldObject, Object newObject) {
        PodInfo before = oldObject == null ? null : PodInfo.of((Pod) oldObject);
        PodInfo after = newObject == null ? null : PodInfo.of((Pod) newObject);
        if (before != null
                && after != null
                && after.uid() != null
                && after.uid().equals(pod.uid())) {
            return QueueingHint.QUEUE;
        }
        if ((before != null && unbound(before)) || (after != null && unbound(after))) {
            return QueueingHint.SKIP;
        }
        List<AffinityTerm> affinity = pod.requiredAffinityTerms();
        List<AffinityTerm> anti = pod.requiredAntiAffinityTerms();
        if (before != null && after != null) {
            boolean nowAffine = meetsEvery(affinity, after) && !meetsEvery(affinity, before);
            boolean noLongerRepelled = meetsAny(anti, before) && !meetsAny(anti, after);
            return nowAffine || noLongerRepelled ? QueueingHint.QUEUE : QueueingHint.SKIP;
        }
        if (after != null) {
            return meetsEvery(affinity, after) ? QueueingHint.QUEUE : QueueingHint.SKIP;
        }
        return meetsAny(anti, before) || meetsAny(before.requiredAntiAffinityTerms(), pod)
                ? QueueingHint.QUEUE
                : QueueingHint.SKIP;
    }

    private static boolean unbound(PodInfo p) {
        return p.nodeName() == null || p.nodeName().isEmpty();
    }

    /** Every term, and at least one (no terms: nothing to meet). */
    private boolean meetsEvery(List<AffinityTerm> terms, PodInfo p) {
        return !terms.isEmpty() && matchesAll(terms, p);
    }

    private boolean meetsAny(List<AffinityTerm> terms, PodInfo p) {
        for (int i = 0; i < terms.size(); i++) {
            if (matches(terms.get(i), p)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A new node with an affinity topology key, or one whose value of it changed; for
     * anti-affinity any new node, or one that lost or changed the key's value.
     */
    static QueueingHint afterNodeChange(PodInfo pod, Object oldObject, Object newObject) {
        Map<String, String> was = oldObject == null ? null : NodeLabels.of((Node) oldObject);
        Map<String, String> now = NodeLabels.of((Node) newObject);
        for (AffinityTerm t : pod.requiredAffinityTerms()) {
            String key = t.topologyKey();
            if (was == null ? now.containsKey(key) : !Objects.equals(was.get(key), now.get(key))) {
                return QueueingHint.QUEUE;
            }
        }
        for (AffinityTerm t : pod.requiredAntiAffinityTerms()) {
            String key = t.topologyKey();
            if (was == null || (was.containsKey(key) && !was.get(key).equals(now.get(key)))) {
                return QueueingHint.QUEUE;
            }
        }
        return QueueingHint.SKIP;
    }

    /**
     * The first selector error in the pod's required (or preferred) affinity terms, else in its
     * anti-affinity terms; upstream names the list only for the preferred ones.
     */
    private static String termsError(PodInfo pod, boolean preferred) {
        Affinity a = pod.pod().getSpec() == null ? null : pod.pod().getSpec().getAffinity();
        if (a == null) {
            return null;
        }
        PodAffinity affinity = a.getPodAffinity();
        String e = affinity == null
                ? null
                : preferred
                        ? weightedError(affinity.getPreferredDuringSchedulingIgnoredDuringExecution())
                        : termsError(affinity.getRequiredDuringSchedulingIgnoredDuringExecution());
        if (e != null) {
            return preferred ? "parsing pod: preferredAffinityTerms: " + e : e;
        }
        PodAntiAffinity anti = a.getPodAntiAffinity();
        e = anti == null
                ? null
                : preferred
                        ? weightedError(anti.getPreferredDuringSchedulingIgnoredDuringExecution())
                        : termsError(anti.getRequiredDuringSchedulingIgnoredDuringExecution());
        return e == null || !preferred ? e : "parsing pod: preferredAntiAffinityTerms: " + e;
    }

    private static String termsError(List<PodAffinityTerm> terms) {
        if (terms != null) {
            for (PodAffinityTerm t : terms) {
                String e = termError(t);
                if (e != null) {
                    return e;
                }
            }
        }
        return null;
    }

    private static String weightedError(List<WeightedPodAffinityTerm> terms) {
        if (terms != null) {
            for (WeightedPodAffinityTerm w : terms) {
                String e = w.getPodAffinityTerm() == null ? null : termError(w.getPodAffinityTerm());
                if (e != null) {
                    return e;
                }
            }
        }
        return null;
    }

    private static String termError(PodAffinityTerm t) {
        String e = SelectorValidation.error(t.getLabelSelector());
        return e != null ? e : SelectorValidation.error(t.getNamespaceSelector());
    }
}
