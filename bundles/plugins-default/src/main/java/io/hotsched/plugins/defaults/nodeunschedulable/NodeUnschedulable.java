package io.hotsched.plugins.defaults.nodeunschedulable;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Taint;
import io.hotsched.api.framework.ActionType;
import io.hotsched.api.framework.ClusterEvent;
import io.hotsched.api.framework.ClusterEventWithHint;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.EnqueueExtensions;
import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.QueueingHint;
import io.hotsched.api.framework.Status;
import io.hotsched.plugins.defaults.helper.Taints;
import java.util.List;

/** A cordoned node ({@code spec.unschedulable}) takes only pods that tolerate the unschedulable taint. */
public final class NodeUnschedulable implements FilterPlugin, EnqueueExtensions {

    public static final String NAME = "NodeUnschedulable";
    public static final String ERR_REASON_UNSCHEDULABLE = "node(s) were unschedulable";
    public static final String ERR_REASON_UNKNOWN_CONDITION = "node(s) had unknown conditions";
    private static final Taint UNSCHEDULABLE_TAINT =
            new Taint("NoSchedule", "node.kubernetes.io/unschedulable", null, null);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
        if (node.node() == null) {
            return Status.unresolvable(ERR_REASON_UNKNOWN_CONDITION);
        }
        if (!cordoned(node.node())) {
            return Status.SUCCESS;
        }
        var tolerations =
                pod.pod().getSpec() == null ? null : pod.pod().getSpec().getTolerations();
        return Taints.tolerated(UNSCHEDULABLE_TAINT, tolerations)
                ? Status.SUCCESS
                : Status.unresolvable(ERR_REASON_UNSCHEDULABLE);
    }

    @Override
    public List<ClusterEventWithHint> eventsToRegister() {
        return List.of(new ClusterEventWithHint(
                ClusterEvent.of(ClusterEvent.NODE, ActionType.ADD, ActionType.UPDATE_NODE_TAINT),
                NodeUnschedulable::afterNodeChange));
    }

    /** Only a node that becomes schedulable (added so, or uncordoned) can take a pod this plugin rejected. */
    static QueueingHint afterNodeChange(PodInfo pod, Object oldObject, Object newObject) {
        boolean wasSchedulable = oldObject != null && !cordoned((Node) oldObject);
        return !wasSchedulable && !cordoned((Node) newObject) ? QueueingHint.QUEUE : QueueingHint.SKIP;
    }

    private static boolean cordoned(Node node) {
        return node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable());
    }
}
