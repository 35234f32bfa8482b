package io.hotsched.api.framework;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Decides whether the pod can run on one node. Called for many nodes in parallel, from the
 * framework's worker threads; must be fast and must not allocate per node in the common case
 * (return {@link Status#SUCCESS}, read what PreFilter computed from the {@link CycleState}).
 *
 * <p>Return {@link Code#UNSCHEDULABLE} when preemption on this node could help,
 * {@link Code#UNSCHEDULABLE_AND_UNRESOLVABLE} when it could not; the reasons are counted across
 * nodes in the "0/N nodes are available" message. Any other non-success code, or an exception,
 * fails the attempt with an error.
 */
@ConsumerType
public interface FilterPlugin extends Plugin {

    Status filter(CycleState state, PodInfo pod, NodeInfo node);
}
