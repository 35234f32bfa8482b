package io.hotsched.core.runtime;

import io.hotsched.api.framework.StateData;
import io.hotsched.api.framework.StateKey;
import java.util.Set;

/** Plugins whose PreFilter (PreScore) said Skip in this attempt: their Filter (Score) does not run. */
record SkippedPlugins(Set<String> names) implements StateData {

    static final StateKey<SkippedPlugins> FILTER = StateKey.of("hotsched.core/SkipFilter", SkippedPlugins.class);
    static final StateKey<SkippedPlugins> SCORE = StateKey.of("hotsched.core/SkipScore", SkippedPlugins.class);

    @Override
    public StateData copy() {
        return this;
    }
}
