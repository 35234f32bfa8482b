package io.hotsched.api.framework;

/**
 * What a PostFilter plugin returns: a status, and on success the node the pod is nominated to
 * (preemption's choice).
 */
public record PostFilterResult(Status status, String nominatedNodeName) {

    public static PostFilterResult of(Status status) {
        return new PostFilterResult(status, null);
    }

    public static PostFilterResult nominated(String node) {
        return new PostFilterResult(Status.SUCCESS, node);
    }
}
