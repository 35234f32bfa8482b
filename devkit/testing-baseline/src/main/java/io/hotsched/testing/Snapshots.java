package io.hotsched.testing;

import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeInfoLister;
import java.util.List;

/** Snapshots for plugin tests: {@code Snapshots.of(Nodes.node("n1").info())}. */
public final class Snapshots {

    private Snapshots() {}

    /** A snapshot of exactly {@code nodes}, in that order. */
    public static NodeInfoLister of(NodeInfo... nodes) {
        List<NodeInfo> list = List.of(nodes);
        return new NodeInfoLister() {
            @Override
            public List<NodeInfo> list() {
                return list;
            }

            @Override
            public NodeInfo get(String name) {
                for (NodeInfo n : list) {
                    if (n.name().equals(name)) {
                        return n;
                    }
                }
                return null;
            }
        };
    }
}
