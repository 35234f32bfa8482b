package io.hotsched.transformers.nodereservation;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.ext.NodeTransformer;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Koordinator's node reservation, as a Filter and Score transformer: the resources a node's
 * {@code node.koordinator.sh/reservation} annotation reserves are taken off the allocatable the
 * Filter and Score plugins see. The cached node is never changed. Enable it by name at filter and
 * score, before the plugins that read allocatable. See docs/transformers.md.
 *
 * <p>A node with reserved resources is replaced by a copy whose allocatable has cpu and memory
 * reduced by the reservation (never below 0; other resources as they are). A node without a
 * reservation is left unchanged, without allocating.
 */
public final class NodeReservation implements NodeTransformer {

    public static final String NAME = "NodeReservation";
    public static final String ANNOTATION = "node.koordinator.sh/reservation";

    /** A node's trimmed copy, valid while the NodeInfo's generation stays the same. */
    private record Trimmed(Node source, long generation, NodeInfo node) {}

    private final Map<String, Trimmed> cache = new ConcurrentHashMap<>();

    @Override
    public String name() {
        return NAME;
    }

    /** The node as Filter and Score should see it: the same object when nothing is reserved. */
    @Override
    public NodeInfo transform(NodeInfo node) {
        Node n = node.node();
        if (n == null
                || n.getMetadata() == null
                || n.getMetadata().getAnnotations() == null
                || !n.getMetadata().getAnnotations().containsKey(ANNOTATION)) {
            return node;
        }
        Trimmed c = cache.get(node.name());
        if (c != null && c.source() == n && c.generation() == node.generation() && node.generation() != 0) {
            return c.node();
        }
        Reservation r = Reservation.of(n);
        if (r == null || !r.trimsAllocatable() || r.reserved().isEmpty()) {
            return node;
        }
        NodeInfo copy = node.copy();
        copy.setNode(trimmed(n, r));
        cache.put(node.name(), new Trimmed(n, node.generation(), copy));
        return copy;
    }

    static Node trimmed(Node n, Reservation r) {
        Map<String, Quantity> alloc = n.getStatus() == null || n.getStatus().getAllocatable() == null
                ? Map.of()
                : n.getStatus().getAllocatable();
        Map<String, Quantity> out = new LinkedHashMap<>(alloc);
        for (String name : List.of("cpu", "memory")) {
            BigDecimal reserved = r.reserved().get(name);
            Quantity q = alloc.get(name);
            if (reserved == null || q == null) {
                continue;
            }
            BigDecimal left = q.getNumericalAmount().subtract(reserved).max(BigDecimal.ZERO);
            out.put(name, new Quantity(left.stripTrailingZeros().toPlainString()));
        }
        return new NodeBuilder(n)
                .editOrNewStatus()
                .withAllocatable(out)
                .endStatus()
                .build();
    }
}
