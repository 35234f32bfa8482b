package io.hotsched.api.framework.ext;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import java.util.ArrayList;
import java.util.List;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * A Filter and Score transformer that rewrites nodes one at a time, whatever the pod (Koordinator's
 * node-side transformers: reservation, amplification). {@link #transform} returns the node itself
 * when it has nothing to change, so the common case allocates nothing; the Filter plugins see the
 * replacement for that node, the Score plugins the list with replacements.
 *
 * @since 1.1
 */
@ConsumerType
public interface NodeTransformer extends FilterTransformer, ScoreTransformer {

    /**
     * The node as Filter and Score should see it: {@code node} itself, or a changed
     * {@link NodeInfo#copy()}. Called from worker threads; {@code node} must not be changed.
     */
    NodeInfo transform(NodeInfo node);

    @Override
    default Transformation beforeFilter(CycleState state, PodInfo pod, NodeInfo node) {
        NodeInfo t = transform(node);
        return t == node ? Transformation.UNCHANGED : Transformation.node(t);
    }

    @Override
    default Transformation beforeScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
        List<NodeInfo> out = null;
        for (int i = 0; i < nodes.size(); i++) {
            NodeInfo t = transform(nodes.get(i));
            if (t != nodes.get(i)) {
                if (out == null) {
                    out = new ArrayList<>(nodes);
                }
                out.set(i, t);
            }
        }
        return out == null ? Transformation.UNCHANGED : Transformation.nodes(out);
    }
}
