package io.hotsched.api.framework;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Decides, for one rejected pod and one cluster event, whether the event may help. Called on the
 * thread that delivers cluster events; must be fast. An exception counts as {@link QueueingHint#QUEUE}.
 */
@ConsumerType
@FunctionalInterface
public interface QueueingHintFunction {

    /**
     * @param oldObject the object before the change (null for an add)
     * @param newObject the object after the change (null for a delete)
     */
    QueueingHint hint(PodInfo pod, Object oldObject, Object newObject);
}
