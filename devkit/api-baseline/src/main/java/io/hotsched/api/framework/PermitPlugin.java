package io.hotsched.api.framework;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * The last gate before binding (gang scheduling waits here). Called on the scheduling thread
 * after Reserve. A pod held with {@link Code#WAIT} waits in its binding cycle until every waiting
 * plugin allows it ({@link WaitingPod#allow}), one rejects it, or a timeout passes; a rejection or
 * a timeout unreserves it and sends it back to the queue. When the plugin's bundle is removed or
 * updated, pods waiting on it are rejected.
 */
@ConsumerType
public interface PermitPlugin extends Plugin {

    PermitResult permit(CycleState state, PodInfo pod, String nodeName);
}
