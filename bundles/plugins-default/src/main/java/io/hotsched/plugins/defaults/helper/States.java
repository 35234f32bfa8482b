package io.hotsched.plugins.defaults.helper;

import io.fabric8.kubernetes.api.model.Node;
import io.hotsched.api.framework.StateKey;
import io.hotsched.api.framework.Status;
import java.util.Map;

/** Small things every plugin needs: the status for missing cycle state, a node's labels. */
public final class States {

    private States() {
    }

    /** Filter or Score ran without the state their PreFilter or PreScore writes: an error, as upstream. */
    public static Status notFound(StateKey<?> key) {
        return Status.error("error reading \"" + key.name() + "\" from cycleState: not found");
    }

    /** The node's labels; empty for a missing node or no labels. */
    public static Map<String, String> labels(Node n) {
        Map<String, String> l = n == null || n.getMetadata() == null ? null : n.getMetadata().getLabels();
        return l == null ? Map.of() : l;
    }
}
