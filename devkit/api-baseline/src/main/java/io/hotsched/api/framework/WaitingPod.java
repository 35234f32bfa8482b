package io.hotsched.api.framework;

import java.util.Set;
import org.osgi.annotation.versioning.ProviderType;

/** A pod held in Permit, waiting for the plugins that said {@link Code#WAIT}. Thread-safe. */
@ProviderType
public interface WaitingPod {

    PodInfo pod();

    /** The node the pod is reserved on. */
    String nodeName();

    /** The plugins that have not allowed the pod yet. */
    Set<String> pendingPlugins();

    /** {@code plugin} allows the pod; when no plugin is pending any more, the pod goes on to bind. */
    void allow(String plugin);

    /** Rejects the pod: it is unreserved and sent back to the queue with {@code message}. */
    void reject(String plugin, String message);
}
