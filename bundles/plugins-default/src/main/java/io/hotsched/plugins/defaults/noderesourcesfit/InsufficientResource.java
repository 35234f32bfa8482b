package io.hotsched.plugins.defaults.noderesourcesfit;

/**
 * One resource a node lacks for a pod: what the pod requests, what the node's pods use, the node's
 * allocatable, and whether the pod could not fit even on the empty node.
 */
public record InsufficientResource(
        String resourceName, String reason, long requested, long used, long capacity, boolean unresolvable) {}
