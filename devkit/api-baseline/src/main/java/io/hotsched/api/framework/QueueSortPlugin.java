package io.hotsched.api.framework;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Orders the active queue. A profile has exactly one, and every profile must use the same one
 * (there is a single queue). Called under the queue's lock: must be fast, side-effect free, and a
 * strict weak order.
 */
@ConsumerType
public interface QueueSortPlugin extends Plugin {

    /** Whether {@code a} should be scheduled before {@code b}. */
    boolean less(QueuedPodInfo a, QueuedPodInfo b);
}
