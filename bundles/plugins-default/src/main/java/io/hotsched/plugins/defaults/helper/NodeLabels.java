package io.hotsched.plugins.defaults.helper;

import io.fabric8.kubernetes.api.model.Node;
import java.util.Map;

/**
 * A node object's labels, for queueing hints, which see the event's objects rather than the cache's
 * NodeInfo; and the well-known label keys several plugins read.
 */
public final class NodeLabels {

    public static final String HOSTNAME = "kubernetes.io/hostname";
    public static final String ZONE = "topology.kubernetes.io/zone";
    public static final String REGION = "topology.kubernetes.io/region";
    // the labels before ZONE and REGION, still read where upstream reads them
    public static final String BETA_ZONE = "failure-domain.beta.kubernetes.io/zone";
    public static final String BETA_REGION = "failure-domain.beta.kubernetes.io/region";

    private NodeLabels() {}

    public static Map<String, String> of(Node node) {
        return node.getMetadata() == null || node.getMetadata().getLabels() == null
                ? Map.of()
                : node.getMetadata().getLabels();
    }
}
