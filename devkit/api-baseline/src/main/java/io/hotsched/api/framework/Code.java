package io.hotsched.api.framework;

/** The outcome of running a plugin, with kube-scheduler's meanings and order. */
public enum Code {
    /** The plugin ran and the pod may go on. */
    SUCCESS,
    /** Something unexpected went wrong; the attempt fails and the pod is retried with backoff. */
    ERROR,
    /**
     * The pod does not fit here now, but preemption on this node might make it fit. The pod waits
     * in the unschedulable queue until a cluster event may help.
     */
    UNSCHEDULABLE,
    /** The pod does not fit here and preemption cannot help; the node is not a preemption candidate. */
    UNSCHEDULABLE_AND_UNRESOLVABLE,
    /** From a Permit plugin only: hold the pod until allowed, rejected or timed out. */
    WAIT,
    /**
     * From PreFilter: this plugin's Filter (and PreFilter extensions) need not run for this pod.
     * From PreScore: this plugin's Score need not run. From Bind: this plugin does not bind this pod.
     */
    SKIP,
    /** The pod waits for something outside the scheduler; treated as a rejection. */
    PENDING;

    /** Unschedulable, UnschedulableAndUnresolvable and Pending: the pod was rejected, not failed. */
    public boolean isRejection() {
        return this == UNSCHEDULABLE || this == UNSCHEDULABLE_AND_UNRESOLVABLE || this == PENDING;
    }
}
