package io.hotsched.api.framework.ext;

import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;
import java.util.List;

/**
 * What a transformer returns: {@link #UNCHANGED}, a replacement pod, node or node list, or a
 * failed status. A transformer never changes the objects it receives: it returns new ones (a
 * {@link NodeInfo#copy()}, a new {@link PodInfo}).
 */
public final class Transformation {

    /** Nothing replaced, success. Shared: the common case allocates nothing. */
    public static final Transformation UNCHANGED = new Transformation(Status.SUCCESS, null, null, null);

    private final Status status;
    private final PodInfo pod;
    private final NodeInfo node;
    private final List<NodeInfo> nodes;

    private Transformation(Status status, PodInfo pod, NodeInfo node, List<NodeInfo> nodes) {
        this.status = status;
        this.pod = pod;
        this.node = node;
        this.nodes = nodes;
    }

    public static Transformation pod(PodInfo pod) {
        return new Transformation(Status.SUCCESS, pod, null, null);
    }

    public static Transformation node(NodeInfo node) {
        return new Transformation(Status.SUCCESS, null, node, null);
    }

    public static Transformation podAndNode(PodInfo pod, NodeInfo node) {
        return new Transformation(Status.SUCCESS, pod, node, null);
    }

    /** For {@link ScoreTransformer}: replaces the list of nodes to score (same nodes, same order). */
    public static Transformation nodes(List<NodeInfo> nodes) {
        return new Transformation(Status.SUCCESS, null, null, List.copyOf(nodes));
    }

    public static Transformation failed(Status status) {
        return new Transformation(status, null, null, null);
    }

    public Status status() {
        return status;
    }

    /** The replacement pod, or null to keep it. */
    public PodInfo pod() {
        return pod;
    }

    /** The replacement node, or null to keep it. */
    public NodeInfo node() {
        return node;
    }

    /** The replacement node list, or null to keep it. */
    public List<NodeInfo> nodes() {
        return nodes;
    }

    /** Whether anything was replaced. */
    public boolean transformed() {
        return pod != null || node != null || nodes != null;
    }
}
