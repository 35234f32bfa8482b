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
 * Replaces a node with reserved resources by a copy whose allocatable has cpu and memory reduced
 * by the reservation (never below 0; other resources as they are). A node without a reservation
 * is left unchanged, without allocating.
 */
final class ReservationTransformer implements NodeTransformer {

    /** A node's trimmed copy, valid while the NodeInfo's generation stays the same. */
    private record Trimmed(Node source, long generation, NodeInfo node) {}

    private final Map<String, Trimmed> cache = new ConcurrentHashMap<>();

    @Override
    public String name() {
        return NodeReservation.NAME;
    }

    /** The node as Filter and Score should see it: the same object when nothing is reserved. */
    @Override
    public NodeInfo transform(NodeInfo node) {
        Node n = node.node();
        if (n == null
                || n.getMetadata() == null
                || n.getMetadata().getAnnotations() == null
                || !n.getMetadata().getAnnotations().containsKey(NodeReservation.ANNOTATION)) {
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
