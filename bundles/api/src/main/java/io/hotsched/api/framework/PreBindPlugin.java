package io.hotsched.api.framework;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Prepares the binding (attach volumes, write allocation annotations), on a binding thread.
 * Failure unreserves the pod and sends it back to the queue.
 */
@ConsumerType
public interface PreBindPlugin extends Plugin {

    Status preBind(CycleState state, PodInfo pod, String nodeName);
}
