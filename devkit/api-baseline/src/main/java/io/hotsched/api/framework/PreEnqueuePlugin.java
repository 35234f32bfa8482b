package io.hotsched.api.framework;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Decides whether a pod may enter the active queue at all (upstream: SchedulingGates). Called
 * from the thread that adds or updates the pod in the queue, before the pod is queued; must be
 * cheap and must not block.
 */
@ConsumerType
public interface PreEnqueuePlugin extends Plugin {

    /**
     * {@link Status#SUCCESS} lets the pod in; any other status keeps it out of the active queue
     * (it is shown as gated, with this status's message) until the pod is updated.
     */
    Status preEnqueue(PodInfo pod);
}
