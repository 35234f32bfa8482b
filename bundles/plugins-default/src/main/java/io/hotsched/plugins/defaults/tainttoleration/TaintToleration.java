package io.hotsched.plugins.defaults.tainttoleration;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import io.hotsched.api.framework.ActionType;
import io.hotsched.api.framework.ClusterEvent;
import io.hotsched.api.framework.ClusterEventWithHint;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.EnqueueExtensions;
import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.ImmutableStateData;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PreScorePlugin;
import io.hotsched.api.framework.QueueingHint;
import io.hotsched.api.framework.ScoreExtensions;
import io.hotsched.api.framework.ScorePlugin;
import io.hotsched.api.framework.StateKey;
import io.hotsched.api.framework.Status;
import io.hotsched.plugins.defaults.helper.Normalize;
import io.hotsched.plugins.defaults.helper.Taints;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Filter: a NoSchedule or NoExecute taint the pod does not tolerate rejects the node. Score: the
 * fewer PreferNoSchedule taints the pod does not tolerate, the better (normalized in reverse).
 */
public final class TaintToleration implements FilterPlugin, PreScorePlugin, ScorePlugin, EnqueueExtensions {

    public static final String NAME = "TaintToleration";
    public static final String ERR_REASON_NOT_MATCH = "node(s) had taints that the pod didn't tolerate";
    private static final StateKey<Prefer> KEY = StateKey.of("PreScore" + NAME, Prefer.class);

    /** The pod's tolerations that matter for scoring (effect empty or PreferNoSchedule). */
    record Prefer(List<Toleration> tolerations) implements ImmutableStateData {}

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
        if (node.node() == null || node.node().getSpec() == null) {
            return Status.SUCCESS;
        }
        Taint t = firstUntolerated(node.node(), tolerations(pod));
        if (t == null) {
            return Status.SUCCESS;
        }
        return Status.unresolvable("node(s) had untolerated taint {" + t.getKey() + ": "
                + (t.getValue() == null ? "" : t.getValue()) + "}");
    }

    @Override
    public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
        List<Toleration> prefer = new ArrayList<>();
        for (Toleration t : tolerations(pod)) {
            if (t.getEffect() == null || t.getEffect().isEmpty() || "PreferNoSchedule".equals(t.getEffect())) {
                prefer.add(t);
            }
        }
        state.write(KEY, new Prefer(List.copyOf(prefer)));
        return Status.SUCCESS;
    }

    @Override
    public long score(CycleState state, PodInfo pod, NodeInfo node) {
        List<Toleration> prefer = state.require(KEY).tolerations();
        if (node.node() == null
                || node.node().getSpec() == null
                || node.node().getSpec().getTaints() == null) {
            return 0;
        }
        long count = 0;
        for (Taint t : node.node().getSpec().getTaints()) {
            if ("PreferNoSchedule".equals(t.getEffect()) && !Taints.tolerated(t, prefer)) {
                count++;
            }
        }
        return count;
    }

    @Override
    public ScoreExtensions scoreExtensions() {
        return Normalize.BY_MAX_REVERSED;
    }

    @Override
    public List<ClusterEventWithHint> eventsToRegister() {
        return List.of(
                new ClusterEventWithHint(
                        ClusterEvent.of(ClusterEvent.NODE, ActionType.ADD, ActionType.UPDATE_NODE_TAINT),
                        TaintToleration::afterNodeChange),
                new ClusterEventWithHint(
                        ClusterEvent.of(ClusterEvent.POD, ActionType.UPDATE), TaintToleration::afterPodChange));
    }

    /** A node that had (or, new, has) a taint the pod does not tolerate, and has none now. */
    static QueueingHint afterNodeChange(PodInfo pod, Object oldObject, Object newObject) {
        boolean untoleratedBefore = oldObject == null || firstUntolerated((Node) oldObject, tolerations(pod)) != null;
        boolean untoleratedNow = firstUntolerated((Node) newObject, tolerations(pod)) != null;
        return untoleratedBefore && !untoleratedNow ? QueueingHint.QUEUE : QueueingHint.SKIP;
    }

    /** The rejected pod itself gained tolerations (a pending pod's tolerations can only be added). */
    static QueueingHint afterPodChange(PodInfo pod, Object oldObject, Object newObject) {
        Pod before = (Pod) oldObject;
        Pod after = (Pod) newObject;
        boolean same = Objects.equals(uid(pod.pod()), uid(after));
        return same && tolerations(before).size() != tolerations(after).size() ? QueueingHint.QUEUE : QueueingHint.SKIP;
    }

    private static String uid(Pod pod) {
        return pod.getMetadata() == null ? null : pod.getMetadata().getUid();
    }

    private static Taint firstUntolerated(Node node, List<Toleration> tolerations) {
        return node.getSpec() == null
                ? null
                : Taints.firstUntolerated(
                        node.getSpec().getTaints(),
                        tolerations,
                        x -> "NoSchedule".equals(x.getEffect()) || "NoExecute".equals(x.getEffect()));
    }

    private static List<Toleration> tolerations(PodInfo pod) {
        return tolerations(pod.pod());
    }

    private static List<Toleration> tolerations(Pod pod) {
        List<Toleration> t = pod.getSpec() == null ? null : pod.getSpec().getTolerations();
        return t == null ? List.of() : t;
    }
}
