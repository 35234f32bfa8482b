package io.hotsched.api.framework;

/**
 * What a PostFilter plugin returns: a status, and the node the pod is nominated to (preemption's
 * choice, with Success). {@code nominatedNodeName} null leaves the pod's nomination as it is; an
 * empty name with a rejection clears a nomination left from an earlier attempt.
 */
public record PostFilterResult(Status status, String nominatedNodeName) {

    public static PostFilterResult of(Status status) {
        return new PostFilterResult(status, null);
    }

    public static PostFilterResult nominated(String node) {
        return new PostFilterResult(Status.SUCCESS, node);
    }
}
