package io.hotsched.api.framework;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * State data that never changes once written to the {@link CycleState}: its copy is itself, so a
 * preemption dry run or a cloned cycle state shares it instead of copying it. Implement it only
 * when no method (of the plugin or of the data) changes the data after it is written; data that
 * PreFilter extensions change (AddPod/RemovePod) must implement {@link StateData#copy()} itself.
 */
@ConsumerType
public interface ImmutableStateData extends StateData {

    @Override
    default StateData copy() {
        return this;
    }
}
