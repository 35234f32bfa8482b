package io.hotsched.api.framework.ext;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hotsched.api.framework.NodeInfo;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A node transformer that shows the Filter and Score plugins a node with another allocatable,
 * derived from the node object's own fields (Koordinator's reservation and amplification
 * annotations, for example). The cached node is never changed.
 *
 * <p>Contract: a node whose object lacks the trigger annotation is passed through unchanged and
 * without allocating. Otherwise {@link #allocatable(Node)} gives the allocatable to show, or null to
 * leave the node as it is; it must depend on the node object alone, because the derived copy is
 * reused for as long as the NodeInfo keeps the same node object and a non-zero generation.
 */
public abstract class AllocatableTransformer implements NodeTransformer {

    /** A node's derived copy, valid while the NodeInfo's node object and generation stay the same. */
    private record Derived(Node source, long generation, NodeInfo node) {}

    private final String annotation;
    private final Map<String, Derived> derived = new ConcurrentHashMap<>();

    /** @param annotation the node annotation without which a node is never transformed */
    protected AllocatableTransformer(String annotation) {
        this.annotation = annotation;
    }

    /** The allocatable Filter and Score should see for this node, or null to leave it as it is. */
    protected abstract Map<String, Quantity> allocatable(Node node);

    /** The node as Filter and Score should see it: the same object when it is not transformed. */
    @Override
    public final NodeInfo transform(NodeInfo node) {
        Node n = node.node();
        if (n == null
                || n.getMetadata() == null
                || n.getMetadata().getAnnotations() == null
                || !n.getMetadata().getAnnotations().containsKey(annotation)) {
            return node;
        }
        Derived c = derived.get(node.name());
        if (c != null && c.source() == n && c.generation() == node.generation() && node.generation() != 0) {
            return c.node();
        }
        Map<String, Quantity> alloc = allocatable(n);
        if (alloc == null) {
            return node;
        }
        NodeInfo copy = node.copy();
        copy.setNode(new NodeBuilder(n)
                .editOrNewStatus()
                .withAllocatable(alloc)
                .endStatus()
                .build());
        derived.put(node.name(), new Derived(n, node.generation(), copy));
        return copy;
    }
}
