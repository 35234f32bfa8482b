package io.hotsched.plugins.defaults.nodeports;

import io.fabric8.kubernetes.api.model.Pod;
import io.hotsched.api.framework.ActionType;
import io.hotsched.api.framework.ClusterEvent;
import io.hotsched.api.framework.ClusterEventWithHint;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.EnqueueExtensions;
import io.hotsched.api.framework.HostPort;
import io.hotsched.api.framework.ImmutableStateData;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeInfoLister;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PreFilterResult;
import io.hotsched.api.framework.QueueingHint;
import io.hotsched.api.framework.StateKey;
import io.hotsched.api.framework.Status;
import io.hotsched.plugins.defaults.helper.StatefulFilter;
import java.util.List;

/**
 * A pod's host ports must be free on the node: same protocol and port on the same IP, or either
 * side the wildcard 0.0.0.0, conflict. Unschedulable (preemption can free a port).
 */
public final class NodePorts implements StatefulFilter<NodePorts.Wanted>, EnqueueExtensions {

    public static final String NAME = "NodePorts";
    public static final String ERR_REASON = "node(s) didn't have free ports for the requested pod ports";
    private static final StateKey<Wanted> KEY = StateKey.of("PreFilter" + NAME, Wanted.class);
    private static final Status REJECT = Status.unschedulable(ERR_REASON);

    /** The pod's host ports. */
    record Wanted(List<HostPort> ports) implements ImmutableStateData {}

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public StateKey<Wanted> preFilterKey() {
        return KEY;
    }

    @Override
    public PreFilterResult preFilter(CycleState state, PodInfo pod, NodeInfoLister nodes) {
        if (pod.hostPorts().isEmpty()) {
            return PreFilterResult.SKIP;
        }
        state.write(KEY, new Wanted(pod.hostPorts()));
        return PreFilterResult.ALL_NODES;
    }

    @Override
    public Status filter(Wanted wanted, PodInfo pod, NodeInfo node) {
        for (HostPort p : wanted.ports()) {
            if (node.hostPortConflicts(p)) {
                return REJECT;
            }
        }
        return Status.SUCCESS;
    }

    @Override
    public List<ClusterEventWithHint> eventsToRegister() {
        return List.of(
                new ClusterEventWithHint(
                        ClusterEvent.of(ClusterEvent.POD, ActionType.DELETE), NodePorts::afterPodDeleted),
                ClusterEventWithHint.of(ClusterEvent.of(ClusterEvent.NODE, ActionType.ADD, ActionType.UPDATE)));
    }

    /** A deleted pod helps only if it was on (or nominated to) a node and held a port the pod wants. */
    static QueueingHint afterPodDeleted(PodInfo pod, Object oldObject, Object newObject) {
        Pod deleted = (Pod) oldObject;
        boolean placed = deleted.getSpec() != null && notEmpty(deleted.getSpec().getNodeName());
        boolean nominated =
                deleted.getStatus() != null && notEmpty(deleted.getStatus().getNominatedNodeName());
        if (!placed && !nominated) {
            return QueueingHint.SKIP;
        }
        for (HostPort freed : PodInfo.of(deleted).hostPorts()) {
            for (HostPort wanted : pod.hostPorts()) {
                if (freed.conflictsWith(wanted)) {
                    return QueueingHint.QUEUE;
                }
            }
        }
        return QueueingHint.SKIP;
    }

    private static boolean notEmpty(String s) {
        return s != null && !s.isEmpty();
    }
}
