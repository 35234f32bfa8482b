package io.hotsched.api.framework;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.function.UnaryOperator;
import org.osgi.annotation.versioning.ProviderType;

/**
 * The cluster operations a plugin may perform, whichever API server the scheduler talks to. Calls
 * block (they are made from binding threads or PostFilter) and throw {@link ClusterException} when
 * the API server refuses.
 */
@ProviderType
public interface ClusterClient {

    /** Binds the pod to the node (the {@code pods/binding} subresource). */
    void bind(PodInfo pod, String nodeName);

    /**
     * Changes the pod: {@code change} receives a copy of the current pod and returns the wanted
     * one; the difference is sent as a patch. Used by PreBind plugins (allocation annotations).
     */
    void patchPod(PodInfo pod, UnaryOperator<Pod> change);

    /**
     * Changes the pod's status (the {@code pods/status} subresource): {@code change} receives a
     * copy of the current pod and returns it with the wanted status. Used by preemption (the
     * victims' DisruptionTarget condition, clearing {@code status.nominatedNodeName}).
     *
     * @since 1.2
     */
    void patchPodStatus(PodInfo pod, UnaryOperator<Pod> change);

    /** Deletes a pod (a preemption victim), recording {@code reason} on it first. */
    void deletePod(PodInfo pod, String reason);

    /** Records an event about the pod ({@code type} Normal or Warning). */
    void recordEvent(PodInfo pod, String type, String reason, String message);

    /**
     * Replaces an object (a PersistentVolume's {@code claimRef}, a claim's annotations: the writes
     * VolumeBinding makes) with a PUT of {@code object} as given; its {@code resourceVersion} must
     * be the stored one, or the API server refuses it (409). Returns the object as stored, with its
     * new resourceVersion.
     *
     * @since 1.7
     */
    <T extends HasMetadata> T update(T object);

    /**
     * Replaces an object's status (its {@code status} subresource) with a PUT of {@code object};
     * as {@link #update}, its {@code resourceVersion} must be the stored one (409 otherwise).
     * DynamicResources writes a ResourceClaim's allocation and {@code reservedFor} this way.
     *
     * @since 1.8
     */
    <T extends HasMetadata> T updateStatus(T object);
}
