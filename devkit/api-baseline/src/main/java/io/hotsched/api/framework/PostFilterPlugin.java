package io.hotsched.api.framework;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Runs when no node passed Filter (upstream: DefaultPreemption). Plugins run in configured order
 * until one returns Success or UnschedulableAndUnresolvable. Called on the scheduling thread.
 */
@ConsumerType
public interface PostFilterPlugin extends Plugin {

    /**
     * @param statuses why each node was rejected
     * @return Success with a nominated node, or a rejection whose message is appended to the
     *     attempt's failure message
     */
    PostFilterResult postFilter(CycleState state, PodInfo pod, NodeToStatus statuses);
}
