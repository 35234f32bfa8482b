package io.hotsched.api.framework;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

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

    /**
     * The reasons over {@code numAllNodes} nodes as kube-scheduler's FitError lists them: each
     * reason with the number of nodes giving it (nodes without a status of their own counted with
     * the absent status), as {@code "<count> <reason>"} strings sorted as plain strings and joined
     * with {@code ", "}. A node with several reasons counts once for each.
     * Example: {@code "1 Insufficient cpu, 2 node(s) were unschedulable"}.
     *
     * @since 1.2
     */
    public String histogram(int numAllNodes) {
        Map<String, Integer> counts = new TreeMap<>();
        for (Status s : explicit.values()) {
            for (String r : s.reasons()) {
                counts.merge(r, 1, Integer::sum);
            }
        }
        int absentNodes = numAllNodes - explicit.size();
        if (absent != null && absentNodes > 0) {
            for (String r : absent.reasons()) {
                counts.merge(r, absentNodes, Integer::sum);
            }
        }
        List<String> entries = new ArrayList<>(counts.size());
        counts.forEach((reason, count) -> entries.add(count + " " + reason));
        Collections.sort(entries);
        return String.join(", ", entries);
    }
}
