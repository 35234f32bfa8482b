package io.hotsched.api.framework;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Prepares the binding (attach volumes, write allocation annotations), on a binding thread.
 * Failure unreserves the pod and sends it back to the queue.
 *
 * <p>{@link Code#WAIT} (since 1.7) means the plugin has started work that others complete (a
 * PersistentVolume controller binding the claims it updated) and wants to be asked again: the
 * framework calls this plugin's {@code preBind} again about a second later, on a binding thread,
 * and holds no thread in between; the PreBind plugins before it are not called again. The plugin
 * bounds its own wait (it keeps the deadline in the cycle state) and then fails.
 */
@ConsumerType
public interface PreBindPlugin extends Plugin {

    Status preBind(CycleState state, PodInfo pod, String nodeName);
}
