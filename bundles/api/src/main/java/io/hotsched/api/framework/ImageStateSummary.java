package io.hotsched.api.framework;

/** An image present on a node: its size in bytes, and on how many nodes of the cluster it is. */
public record ImageStateSummary(long size, int numNodes) {
}
