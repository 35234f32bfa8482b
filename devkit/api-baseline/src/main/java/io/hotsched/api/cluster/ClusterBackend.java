package io.hotsched.api.cluster;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.function.UnaryOperator;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Implemented by a cluster connection and registered as a service: the writes the scheduler makes.
 * Calls block and come from binding threads and the scheduling thread; failures are thrown as
 * {@link io.hotsched.api.framework.ClusterException} with the API server's HTTP status.
 */
@ConsumerType
public interface ClusterBackend {

    /** Binds the pod ({@code pods/binding}); a pod already bound is a 409, a missing pod a 404. */
    void bind(Pod pod, String nodeName);

    /** Applies {@code change} to the current pod and sends the difference as a patch. */
    void patchPod(Pod pod, UnaryOperator<Pod> change);

    /**
     * Applies {@code change} to the current pod and writes its status through the
     * {@code pods/status} subresource. Backends written against 1.0 do not have it and refuse.
     *
     * @since 1.1
     */
    default void patchPodStatus(Pod pod, UnaryOperator<Pod> change) {
        throw new UnsupportedOperationException(getClass().getName() + " cannot change pod status");
    }

    /**
     * Replaces an object of another kind than pods (a PersistentVolume, a claim) with {@code object};
     * a stale resourceVersion is a 409. Returns the object as stored. Backends written against 1.1
     * do not have it and refuse.
     *
     * @since 1.2
     */
    default <T extends HasMetadata> T update(T object) {
        throw new UnsupportedOperationException(getClass().getName() + " cannot update " + object.getKind() + "s");
    }

    /**
     * Replaces an object's status subresource with {@code object}'s (a ResourceClaim's allocation);
     * a stale resourceVersion is a 409. Returns the object as stored. Backends written against 1.2
     * do not have it and refuse.
     *
     * @since 1.3
     */
    default <T extends HasMetadata> T updateStatus(T object) {
        throw new UnsupportedOperationException(
                getClass().getName() + " cannot update the status of " + object.getKind() + "s");
    }

    /** Deletes the pod. */
    void deletePod(Pod pod);

    /** Records an event about the pod; {@code type} is Normal or Warning. */
    void recordEvent(Pod pod, String type, String reason, String message);

    /**
     * Sets the pod's {@code PodScheduled} condition to False with {@code reason} and
     * {@code message}, and {@code status.nominatedNodeName} (null: leave as is, empty: clear).
     */
    void markUnschedulable(Pod pod, String reason, String message, String nominatedNodeName);
}
