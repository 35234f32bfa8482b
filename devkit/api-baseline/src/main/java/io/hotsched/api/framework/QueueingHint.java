package io.hotsched.api.framework;

/** A plugin's answer to "may this event make the pod schedulable?". */
public enum QueueingHint {
    /** Move the pod back to the active (or backoff) queue. */
    QUEUE,
    /** This event does not help the pod; keep it where it is. */
    SKIP
}
