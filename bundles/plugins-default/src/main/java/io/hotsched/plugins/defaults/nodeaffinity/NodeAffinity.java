package io.hotsched.plugins.defaults.nodeaffinity;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.PreferredSchedulingTerm;
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
import io.hotsched.api.framework.PreScorePlugin;
import io.hotsched.api.framework.QueueingHint;
import io.hotsched.api.framework.ScoreExtensions;
import io.hotsched.api.framework.ScorePlugin;
import io.hotsched.api.framework.StateKey;
import io.hotsched.api.framework.Status;
import io.hotsched.plugins.defaults.helper.NodeSelectorTerm;
import io.hotsched.plugins.defaults.helper.Normalize;
import io.hotsched.plugins.defaults.helper.RequiredNodeAffinity;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Filter: the node must match the pod's {@code nodeSelector} and required node affinity, and the
 * scheduler-enforced {@code addedAffinity} of the arguments. Score: the sum of the weights of the
 * preferred terms (the pod's and the added ones) the node matches, normalized.
 */
public final class NodeAffinity
        implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin, EnqueueExtensions {

    public static final String NAME = "NodeAffinity";
    public static final String ERR_REASON_POD = "node(s) didn't match Pod's node affinity/selector";
    public static final String ERR_REASON_ENFORCED = "node(s) didn't match scheduler-enforced node affinity";
    public static final String ERR_REASON_CONFLICT = "pod affinity terms conflict";

    /** NodeAffinityArgs. */
    public static final class Args {
        public io.fabric8.kubernetes.api.model.NodeAffinity addedAffinity;
    }

    static NodeAffinity create(PluginArgs args, Handle handle) throws InvalidArgsException {
        Args a = args.as(Args.class);
        List<NodeSelectorTerm> addedRequired = null;
        List<Weighted> addedPreferred = List.of();
        if (a.addedAffinity != null) {
            if (a.addedAffinity.getRequiredDuringSchedulingIgnoredDuringExecution() != null) {
                addedRequired =
                        NodeSelectorTerm.all(a.addedAffinity.getRequiredDuringSchedulingIgnoredDuringExecution());
                for (int i = 0; i < addedRequired.size(); i++) {
                    if (addedRequired.get(i).error() != null) {
                        throw new InvalidArgsException(
                                "addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[" + i
                                        + "]",
                                addedRequired.get(i).error());
                    }
                }
            }
            String[] error = new String[1];
            addedPreferred = weighted(a.addedAffinity.getPreferredDuringSchedulingIgnoredDuringExecution(), error);
            if (error[0] != null) {
                throw new InvalidArgsException(
                        "addedAffinity.preferredDuringSchedulingIgnoredDuringExecution", error[0]);
            }
        }
        return new NodeAffinity(addedRequired, addedPreferred);
    }

    /** A preferred term with its weight. */
    record Weighted(NodeSelectorTerm term, int weight) {}

    static List<Weighted> weighted(List<PreferredSchedulingTerm> terms, String[] error) {
        List<Weighted> out = new ArrayList<>();
        if (terms == null) {
            return out;
        }
        for (int i = 0; i < terms.size(); i++) {
            PreferredSchedulingTerm t = terms.get(i);
            NodeSelectorTerm term = NodeSelectorTerm.of(
                    t.getPreference() == null
                            ? new io.fabric8.kubernetes.api.model.NodeSelectorTerm()
                            : t.getPreference());
            if (term.error() != null && error[0] == null) {
                error[0] = "[" + i + "]." + term.error();
            }
            out.add(new Weighted(term, t.getWeight() == null ? 0 : t.getWeight()));
        }
        return out;
    }

    /** The preferred terms that score the pod. */
    record Preferred(List<Weighted> terms) implements ImmutableStateData {}

    private static final StateKey<RequiredNodeAffinity> REQUIRED =
            StateKey.of("PreFilter" + NAME, RequiredNodeAffinity.class);
    private static final StateKey<Preferred> PREFERRED = StateKey.of("PreScore" + NAME, Preferred.class);
    private static final Status REJECT_POD = Status.unresolvable(ERR_REASON_POD);
    private static final Status REJECT_ENFORCED = Status.unresolvable(ERR_REASON_ENFORCED);

    private final List<NodeSelectorTerm> addedRequired;
    private final List<Weighted> addedPreferred;

    NodeAffinity(List<NodeSelectorTerm> addedRequired, List<Weighted> addedPreferred) {
        this.addedRequired = addedRequired;
        this.addedPreferred = addedPreferred;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public PreFilterResult preFilter(CycleState state, PodInfo pod, NodeInfoLister nodes) {
        RequiredNodeAffinity r = RequiredNodeAffinity.of(pod);
        if (r.nodeSelector().isEmpty() && r.terms() == null && addedRequired == null) {
            return PreFilterResult.SKIP;
        }
        state.write(REQUIRED, r);
        if (r.terms() == null || r.terms().isEmpty()) {
            return PreFilterResult.ALL_NODES;
        }
        // When every term names nodes with metadata.name In, only those nodes can fit.
        Set<String> union = new HashSet<>();
        for (NodeSelectorTerm t : r.terms()) {
            Set<String> within = null;
            for (NodeSelectorRequirement f : t.fields()) {
                if ("metadata.name".equals(f.getKey()) && "In".equals(f.getOperator())) {
                    Set<String> values = new HashSet<>(f.getValues() == null ? List.of() : f.getValues());
                    if (within == null) {
                        within = values;
                    } else {
                        within.retainAll(values);
                    }
                }
            }
            if (within == null) {
                return PreFilterResult.ALL_NODES;
            }
            union.addAll(within);
        }
        if (union.isEmpty()) {
            return PreFilterResult.of(Status.unresolvable(ERR_REASON_CONFLICT));
        }
        return PreFilterResult.nodes(union);
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
        Node n = node.node();
        if (n == null) {
            return Status.error("node not found");
        }
        if (addedRequired != null && !RequiredNodeAffinity.anyMatches(addedRequired, n)) {
            return REJECT_ENFORCED;
        }
        RequiredNodeAffinity r = state.read(REQUIRED).orElseGet(() -> RequiredNodeAffinity.of(pod));
        return r.matches(n) ? Status.SUCCESS : REJECT_POD;
    }

    @Override
    public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
        var spec = pod.pod().getSpec();
        var affinity = spec == null || spec.getAffinity() == null
                ? null
                : spec.getAffinity().getNodeAffinity();
        String[] error = new String[1];
        List<Weighted> terms = weighted(
                affinity == null ? null : affinity.getPreferredDuringSchedulingIgnoredDuringExecution(), error);
        if (error[0] != null) {
            return Status.error(error[0]);
        }
        if (terms.isEmpty() && addedPreferred.isEmpty()) {
            return Status.SKIP;
        }
        List<Weighted> all = new ArrayList<>(terms);
        all.addAll(addedPreferred);
        state.write(PREFERRED, new Preferred(List.copyOf(all)));
        return Status.SUCCESS;
    }

    @Override
    public long score(CycleState state, PodInfo pod, NodeInfo node) {
        Node n = node.node();
        if (n == null) {
            return 0;
        }
        List<Weighted> terms = state.read(PREFERRED).map(Preferred::terms).orElse(List.of());
        long sum = 0;
        for (Weighted w : terms) {
            if (w.weight() != 0 && w.term().matches(n)) {
                sum += w.weight();
            }
        }
        return sum;
    }

    @Override
    public ScoreExtensions scoreExtensions() {
        return Normalize.BY_MAX;
    }

    @Override
    public List<ClusterEventWithHint> eventsToRegister() {
        return List.of(
                new ClusterEventWithHint(
                        ClusterEvent.of(ClusterEvent.NODE, ActionType.ADD, ActionType.UPDATE_NODE_LABEL),
                        this::afterNodeChange),
                ClusterEventWithHint.of(ClusterEvent.of(ClusterEvent.POD, ActionType.UPDATE)));
    }

    /** A node that matches the pod's required affinity (and the enforced one) now, and did not before. */
    QueueingHint afterNodeChange(PodInfo pod, Object oldObject, Object newObject) {
        Node before = (Node) oldObject;
        Node after = (Node) newObject;
        if (addedRequired != null && !RequiredNodeAffinity.anyMatches(addedRequired, after)) {
            return QueueingHint.SKIP;
        }
        RequiredNodeAffinity required = RequiredNodeAffinity.of(pod);
        if (!required.matches(after)) {
            return QueueingHint.SKIP;
        }
        return before == null || !required.matches(before) ? QueueingHint.QUEUE : QueueingHint.SKIP;
    }
}
