package io.hotsched.api.framework;

import org.osgi.annotation.versioning.ConsumerType;

/** Informed after a successful binding, on a binding thread. Must not throw. */
@ConsumerType
public interface PostBindPlugin extends Plugin {

    void postBind(CycleState state, PodInfo pod, String nodeName);
}
