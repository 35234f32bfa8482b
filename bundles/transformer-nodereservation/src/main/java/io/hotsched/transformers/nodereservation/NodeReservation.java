package io.hotsched.transformers.nodereservation;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hotsched.api.framework.ext.AllocatableTransformer;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
public final class NodeReservation extends AllocatableTransformer {

    public static final String NAME = "NodeReservation";
    public static final String ANNOTATION = "node.koordinator.sh/reservation";

    public NodeReservation() {
        super(ANNOTATION);
    }

    @Override
    public String name() {
        return NAME;
    }

    /** The allocatable less the reservation, or null when nothing is reserved or it cannot be read. */
    @Override
    protected Map<String, Quantity> allocatable(Node node) {
        Reservation r = Reservation.of(node);
        if (r == null || !r.trimsAllocatable() || r.reserved().isEmpty()) {
            return null;
        }
        return trimmed(node, r);
    }

    static Map<String, Quantity> trimmed(Node n, Reservation r) {
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
        return out;
    }
}
