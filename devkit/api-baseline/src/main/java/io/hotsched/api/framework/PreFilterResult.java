package io.hotsched.api.framework;

import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a PreFilter plugin returns: a status and, optionally, the only nodes worth filtering
 * (upstream's {@code PreFilterResult}). The framework intersects the node sets of all PreFilter
 * plugins; nodes outside the intersection are rejected without running Filter.
 */
public final class PreFilterResult {

    /** Success, all nodes. */
    public static final PreFilterResult ALL_NODES = new PreFilterResult(Status.SUCCESS, null);

    /** Skip: this plugin's Filter need not run for the pod. */
    public static final PreFilterResult SKIP = new PreFilterResult(Status.SKIP, null);

    private final Status status;
    private final Set<String> nodeNames;

    private PreFilterResult(Status status, Set<String> nodeNames) {
        this.status = status;
        this.nodeNames = nodeNames;
    }

    /** A result with this status and no restriction on nodes. */
    public static PreFilterResult of(Status status) {
        if (status.isSuccess()) {
            return ALL_NODES;
        }
        return status == Status.SKIP ? SKIP : new PreFilterResult(status, null);
    }

    /** Success, restricted to {@code names} (an empty set means no node can fit). */
    public static PreFilterResult nodes(Set<String> names) {
        return new PreFilterResult(Status.SUCCESS, Collections.unmodifiableSet(new TreeSet<>(names)));
    }

    public Status status() {
        return status;
    }

    /** True when every node may be filtered. */
    public boolean allNodes() {
        return nodeNames == null;
    }

    /** The nodes worth filtering, sorted; null means all. */
    public Set<String> nodeNames() {
        return nodeNames;
    }

    /** The intersection of two results' node sets (statuses are not merged). */
    public PreFilterResult intersect(PreFilterResult other) {
        if (other == null || other.allNodes()) {
            return this;
        }
        if (allNodes()) {
            return other;
        }
        TreeSet<String> both = new TreeSet<>(nodeNames);
        both.retainAll(other.nodeNames);
        return new PreFilterResult(Status.SUCCESS, Collections.unmodifiableSet(both));
    }

    @Override
    public String toString() {
        return status + (nodeNames == null ? "" : " " + nodeNames);
    }
}
