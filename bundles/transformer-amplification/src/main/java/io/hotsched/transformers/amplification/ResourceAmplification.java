package io.hotsched.transformers.amplification;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hotsched.api.framework.ext.AllocatableTransformer;
import java.util.Map;

/**
 * Koordinator's node resource amplification, as a Filter and Score transformer: a node's
 * {@code node.koordinator.sh/resource-amplification-ratio} multiplies its raw allocatable
 * ({@code node.koordinator.sh/raw-allocatable}, else {@code status.allocatable}) in what the
 * Filter and Score plugins see. The cached node is never changed. See docs/transformers.md.
 *
 * <p>An amplified node is replaced by a copy with the amplified allocatable. A node without ratios
 * is left unchanged, without allocating.
 */
public final class ResourceAmplification extends AllocatableTransformer {

    public static final String NAME = "ResourceAmplification";
    public static final String RATIO_ANNOTATION = "node.koordinator.sh/resource-amplification-ratio";
    public static final String RAW_ALLOCATABLE_ANNOTATION = "node.koordinator.sh/raw-allocatable";

    public ResourceAmplification() {
        super(RATIO_ANNOTATION);
    }

    @Override
    public String name() {
        return NAME;
    }

    /** The amplified allocatable, or null when the node's ratios cannot be read. */
    @Override
    protected Map<String, Quantity> allocatable(Node node) {
        return Amplification.allocatable(node);
    }
}
