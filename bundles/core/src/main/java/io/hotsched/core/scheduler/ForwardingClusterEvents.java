package io.hotsched.core.scheduler;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.hotsched.api.cluster.ClusterEvents;

/**
 * Passes every cluster event on to {@link #target()}, in the order it came; a subclass that needs
 * to know what went by overrides {@link #passedOn}.
 */
public abstract class ForwardingClusterEvents implements ClusterEvents {

    /** Where the events go; asked for every event. */
    protected abstract ClusterEvents target();

    /**
     * Called once the change of {@code kind} ("Node", "Pod" or another kind) has been passed on;
     * {@code oldObject} is null for an add, {@code newObject} null for a delete.
     */
    protected void passedOn(String kind, HasMetadata oldObject, HasMetadata newObject) {}

    @Override
    public void nodeAdded(Node node) {
        target().nodeAdded(node);
        passedOn("Node", null, node);
    }

    @Override
    public void nodeUpdated(Node oldNode, Node newNode) {
        target().nodeUpdated(oldNode, newNode);
        passedOn("Node", oldNode, newNode);
    }

    @Override
    public void nodeDeleted(Node node) {
        target().nodeDeleted(node);
        passedOn("Node", node, null);
    }

    @Override
    public void podAdded(Pod pod) {
        target().podAdded(pod);
        passedOn("Pod", null, pod);
    }

    @Override
    public void podUpdated(Pod oldPod, Pod newPod) {
        target().podUpdated(oldPod, newPod);
        passedOn("Pod", oldPod, newPod);
    }

    @Override
    public void podDeleted(Pod pod) {
        target().podDeleted(pod);
        passedOn("Pod", pod, null);
    }

    @Override
    public void objectChanged(String kind, HasMetadata oldObject, HasMetadata newObject) {
        target().objectChanged(kind, oldObject, newObject);
        passedOn(kind, oldObject, newObject);
    }

    @Override
    public void synced() {
        target().synced();
    }

    @Override
    public void leading(boolean leading) {
        target().leading(leading);
    }
}
