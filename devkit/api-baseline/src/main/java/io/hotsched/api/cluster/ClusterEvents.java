package io.hotsched.api.cluster;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import org.osgi.annotation.versioning.ProviderType;

/**
 * Implemented by the scheduler and registered as a service; a cluster connection calls it for
 * every change it observes, in the order observed, from its own threads (calls are thread-safe
 * and return quickly). Every pod is reported, whichever scheduler it is for: assigned pods count
 * on their nodes.
 */
@ProviderType
public interface ClusterEvents {

    void nodeAdded(Node node);

    void nodeUpdated(Node oldNode, Node newNode);

    void nodeDeleted(Node node);

    void podAdded(Pod pod);

    void podUpdated(Pod oldPod, Pod newPod);

    void podDeleted(Pod pod);

    /**
     * Any other kind the scheduler or its plugins follow (PodDisruptionBudget, PriorityClass,
     * Namespace, NodeMetric, Device ...); {@code oldObject} is null for an add, {@code newObject}
     * null for a delete.
     */
    void objectChanged(String kind, HasMetadata oldObject, HasMetadata newObject);

    /** The connection has delivered the full initial state; the scheduler may start scheduling. */
    void synced();

    /**
     * Leadership among scheduler replicas, when the connection runs a leader election: false stops
     * scheduling at once (no new attempt starts, no binding is sent); true starts it again.
     * Without leader election this is never called and the scheduler schedules.
     */
    void leading(boolean leading);
}
