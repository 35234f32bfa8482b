package io.hotsched.api.framework;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Binds the pod to the node, on a binding thread. Bind plugins run in configured order until one
 * returns something other than {@link Code#SKIP}. An error unreserves the pod and sends it back
 * to the queue. Null is taken as an error, not as success: a binder says it bound the pod.
 */
@ConsumerType
public interface BindPlugin extends Plugin {

    Status bind(CycleState state, PodInfo pod, String nodeName);
}
