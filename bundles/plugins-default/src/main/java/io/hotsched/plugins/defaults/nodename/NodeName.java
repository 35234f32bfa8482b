package io.hotsched.plugins.defaults.nodename;

import io.hotsched.api.framework.ActionType;
import io.hotsched.api.framework.ClusterEvent;
import io.hotsched.api.framework.ClusterEventWithHint;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.EnqueueExtensions;
import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;
import java.util.List;

/** A pod that names a node ({@code spec.nodeName}) fits only that node. */
public final class NodeName implements FilterPlugin, EnqueueExtensions {

    public static final String NAME = "NodeName";
    public static final String ERR_REASON = "node(s) didn't match the requested node name";
    private static final Status REJECT = Status.unresolvable(ERR_REASON);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
        String wanted = pod.nodeName();
        return wanted == null || wanted.equals(node.name()) ? Status.SUCCESS : REJECT;
    }

    @Override
    public List<ClusterEventWithHint> eventsToRegister() {
        return List.of(ClusterEventWithHint.of(ClusterEvent.of(ClusterEvent.NODE, ActionType.ADD)));
    }
}
