package io.hotsched.api.framework;

/** What happened to a cluster object, for {@link ClusterEvent}. */
public enum ActionType {
    ADD,
    DELETE,
    /** Any update. */
    UPDATE,
    /** A node's allocatable changed. */
    UPDATE_NODE_ALLOCATABLE,
    /** A node's labels changed. */
    UPDATE_NODE_LABEL,
    /** A node's taints changed. */
    UPDATE_NODE_TAINT,
    /** A node's conditions changed. */
    UPDATE_NODE_CONDITION,
    /** A pod's labels changed. */
    UPDATE_POD_LABEL,
    /** A pod's requests went down, or it stopped using them (terminated). */
    UPDATE_POD_SCALE_DOWN
}
