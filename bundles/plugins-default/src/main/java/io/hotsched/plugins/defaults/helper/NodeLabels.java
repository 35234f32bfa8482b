package io.hotsched.plugins.defaults.helper;

import io.fabric8.kubernetes.api.model.Node;
import java.util.Map;

/** A node object's labels, for queueing hints, which see the event's objects rather than the cache's NodeInfo. */
public final class NodeLabels {

    private NodeLabels() {}

    public static Map<String, String> of(Node node) {
        return node.getMetadata() == null || node.getMetadata().getLabels() == null
                ? Map.of()
                : node.getMetadata().getLabels();
    }
}
