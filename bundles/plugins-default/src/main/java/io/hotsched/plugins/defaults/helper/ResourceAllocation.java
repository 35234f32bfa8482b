package io.hotsched.plugins.defaults.helper;

import io.hotsched.api.framework.ActionType;
import io.hotsched.api.framework.ClusterEvent;
import io.hotsched.api.framework.ClusterEventWithHint;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Resource;
import java.util.List;

/**
 * The amounts resource-scoring plugins compare, read as upstream's resource allocation scorer
 * reads them: per resource, the node's allocatable and what would be requested with the pod on it.
 */
public final class ResourceAllocation {

    /**
     * The events after which a pod that did not fit (or scored low) may fit better: a pod deleted or
     * scaled down, a node added or given more allocatable.
     */
    public static final List<ClusterEventWithHint> EVENTS = List.of(
            ClusterEventWithHint.of(
                    ClusterEvent.of(ClusterEvent.POD, ActionType.DELETE, ActionType.UPDATE_POD_SCALE_DOWN)),
            ClusterEventWithHint.of(
                    ClusterEvent.of(ClusterEvent.NODE, ActionType.ADD, ActionType.UPDATE_NODE_ALLOCATABLE)));

    private ResourceAllocation() {}

    /**
     * The pod's request of each resource. Unless {@code actual}, cpu and memory count upstream's
     * defaults (100m, 200Mi) for containers that name none.
     */
    public static long[] podRequests(PodInfo pod, List<ResourceSpec> resources, boolean actual) {
        long[] out = new long[resources.size()];
        for (int i = 0; i < out.length; i++) {
            String name = resources.get(i).name();
            Resource source = !actual && (name.equals(Resource.CPU) || name.equals(Resource.MEMORY))
                    ? pod.nonZeroRequests()
                    : pod.requests();
            out[i] = source.get(name);
        }
        return out;
    }

    /**
     * The node's allocatable amount of {@code name}, or 0 when the resource is not to be scored: a
     * scalar resource the pod does not request or the node does not have, or {@code pods}.
     */
    public static long allocatable(NodeInfo node, String name, long podRequest) {
        if (name.equals(Resource.PODS) || ResourceNames.isScalar(name) && podRequest == 0) {
            return 0;
        }
        return node.allocatable().get(name);
    }

    /** What the node's pods request of {@code name} plus the pod's request; see {@link #podRequests}. */
    public static long requested(NodeInfo node, String name, long podRequest, boolean actual) {
        Resource onNode = !actual && (name.equals(Resource.CPU) || name.equals(Resource.MEMORY))
                ? node.nonZeroRequested()
                : node.requested();
        return onNode.get(name) + podRequest;
    }
}
