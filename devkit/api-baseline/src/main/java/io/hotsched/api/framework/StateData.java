package io.hotsched.api.framework;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Data a plugin keeps in the {@link CycleState} of one scheduling attempt, typically computed in
 * PreFilter or PreScore for Filter or Score to read.
 */
@ConsumerType
public interface StateData {

    /**
     * A copy independent enough that changes to it (for example by PreFilter extensions during a
     * preemption dry run) do not affect this one. Immutable data may return itself.
     */
    StateData copy();
}
