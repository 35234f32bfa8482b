package io.hotsched.core.runtime;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.ImmutableStateData;
import io.hotsched.api.framework.StateKey;
import java.util.Set;

/** Plugins whose PreFilter (PreScore) said Skip in this attempt: their Filter (Score) does not run. */
record SkippedPlugins(Set<String> names) implements ImmutableStateData {

    static final StateKey<SkippedPlugins> FILTER = StateKey.of("hotsched.core/SkipFilter", SkippedPlugins.class);
    static final StateKey<SkippedPlugins> SCORE = StateKey.of("hotsched.core/SkipScore", SkippedPlugins.class);

    /** The plugins whose Filter does not run in {@code state}'s attempt. */
    static Set<String> filter(CycleState state) {
        return names(state, FILTER);
    }

    /** The plugins whose Score does not run in {@code state}'s attempt. */
    static Set<String> score(CycleState state) {
        return names(state, SCORE);
    }

    private static Set<String> names(CycleState state, StateKey<SkippedPlugins> key) {
        SkippedPlugins s = state.readOrNull(key);
        return s == null ? Set.of() : s.names;
    }
}
