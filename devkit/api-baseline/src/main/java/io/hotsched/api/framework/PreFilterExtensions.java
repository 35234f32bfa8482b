package io.hotsched.api.framework;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Lets preemption ask a PreFilter plugin to update its cycle state incrementally, as if a pod
 * were added to or removed from a node, instead of running PreFilter again. Called on a copy of
 * the cycle state, from the preemption dry run's threads.
 */
@ConsumerType
public interface PreFilterExtensions {

    /** Updates {@code state} as if {@code podToAdd} ran on {@code node}. */
    Status addPod(CycleState state, PodInfo podToSchedule, PodInfo podToAdd, NodeInfo node);

    /** Updates {@code state} as if {@code podToRemove} no longer ran on {@code node}. */
    Status removePod(CycleState state, PodInfo podToSchedule, PodInfo podToRemove, NodeInfo node);
}
