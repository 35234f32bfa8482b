package io.hotsched.core.runtime;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.StateData;
import io.hotsched.api.framework.StateKey;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The plugin faults of one scheduling attempt (exceptions, out-of-range scores, time-outs), kept
 * in its cycle state so that parallel calls can record them and the attempt can count each faulty
 * plugin once. Shared, not copied, by {@link CycleState#copy()}: a preemption dry run's faults
 * count for the attempt.
 */
final class AttemptFaults implements StateData {

    static final StateKey<AttemptFaults> KEY = StateKey.of("hotsched.core/AttemptFaults", AttemptFaults.class);

    private final Map<PluginInstance, String> faults = new ConcurrentHashMap<>();

    static AttemptFaults of(CycleState state) {
        return state.read(KEY).orElseGet(() -> {
            AttemptFaults f = new AttemptFaults();
            state.write(KEY, f);
            return f;
        });
    }

    void record(PluginInstance instance, String error) {
        faults.putIfAbsent(instance, error);
    }

    Map<PluginInstance, String> all() {
        return faults;
    }

    @Override
    public StateData copy() {
        return this;
    }
}
