package io.hotsched.api.framework;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Keeps a plugin's own bookkeeping in step with the scheduler's assumption that the pod runs on
 * the chosen node, before the binding is confirmed. Reserve runs on the scheduling thread; a
 * failing Reserve (or a later failure up to binding) makes the framework call {@link #unreserve}
 * on every Reserve plugin of the attempt, in reverse order, on the same plugin instance that
 * reserved.
 */
@ConsumerType
public interface ReservePlugin extends Plugin {

    Status reserve(CycleState state, PodInfo pod, String nodeName);

    /**
     * Undoes {@link #reserve}. Must be idempotent, and may be called although this plugin's
     * reserve was not (another plugin's reserve failed first). May run on a binding thread, or on
     * the thread that removes the plugin's bundle. Must not throw.
     */
    void unreserve(CycleState state, PodInfo pod, String nodeName);
}
