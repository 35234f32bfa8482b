package io.hotsched.api.framework;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Why each node was rejected in the Filter phase of one attempt. Nodes that were not filtered (for
 * example outside a PreFilter result) share the {@link #absent()} status.
 */
public final class NodeToStatus {

    private final Map<String, Status> explicit;
    private final Status absent;

    public NodeToStatus(Map<String, Status> explicit, Status absent) {
        this.explicit = Collections.unmodifiableMap(explicit);
        this.absent = absent;
    }

    /** The status of {@code node}. */
    public Status get(String node) {
        Status s = explicit.get(node);
        return s == null ? absent : s;
    }

    /** Nodes with a status of their own. */
    public Map<String, Status> explicit() {
        return explicit;
    }

    /** The status of nodes not listed explicitly. */
    public Status absent() {
        return absent;
    }

    /** The nodes of {@code nodes} whose status has {@code code}, in the lister's order. */
    public List<NodeInfo> nodesWith(NodeInfoLister nodes, Code code) {
        List<NodeInfo> out = new ArrayList<>();
        for (NodeInfo n : nodes.list()) {
            if (get(n.name()).code() == code) {
                out.add(n);
            }
        }
        return out;
    }
}
