package io.hotsched.transformers.amplification;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.ext.NodeTransformer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Koordinator's node resource amplification, as a Filter and Score transformer: a node's
 * {@code node.koordinator.sh/resource-amplification-ratio} multiplies its raw allocatable
 * ({@code node.koordinator.sh/raw-allocatable}, else {@code status.allocatable}) in what the
 * Filter and Score plugins see. The cached node is never changed. See docs/transformers.md.
 *
 * <p>An amplified node is replaced by a copy with the amplified allocatable. A node without ratios
 * is left unchanged, without allocating.
 */
public final class ResourceAmplification implements NodeTransformer {

    public static final String NAME = "ResourceAmplification";
    public static final String RATIO_ANNOTATION = "node.koordinator.sh/resource-amplification-ratio";
    public static final String RAW_ALLOCATABLE_ANNOTATION = "node.koordinator.sh/raw-allocatable";

    /** A node's amplified copy, valid while the NodeInfo's generation stays the same. */
    private record Amplified(Node source, long generation, NodeInfo node) {}

    private final Map<String, Amplified> cache = new ConcurrentHashMap<>();

    @Override
    public String name() {
        return NAME;
    }

    /** The node as Filter and Score should see it: the same object when it is not amplified. */
    @Override
    public NodeInfo transform(NodeInfo node) {
        Node n = node.node();
        if (n == null
                || n.getMetadata() == null
                || n.getMetadata().getAnnotations() == null
                || !n.getMetadata().getAnnotations().containsKey(RATIO_ANNOTATION)) {
            return node;
        }
        Amplified c = cache.get(node.name());
        if (c != null && c.source() == n && c.generation() == node.generation() && node.generation() != 0) {
            return c.node();
        }
        Map<String, Quantity> alloc = Amplification.allocatable(n);
        if (alloc == null) {
            return node;
        }
        NodeInfo copy = node.copy();
        copy.setNode(new NodeBuilder(n)
                .editOrNewStatus()
                .withAllocatable(alloc)
                .endStatus()
                .build());
        cache.put(node.name(), new Amplified(n, node.generation(), copy));
        return copy;
    }
}
