package io.hotsched.core.scheduler;

import io.hotsched.core.config.EditDistance;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The scheduler's switches named as upstream's feature gates, read from a {@code featureGates}
 * setting in kube-scheduler's {@code --feature-gates} form ({@code Name=true,Other=false}). A gate not
 * named keeps its default (upstream's, unless its constant says why not).
 */
public final class FeatureGates {

    /**
     * KEP-5142: an empty active queue takes from the backoff queue. Beta and on by default, as
     * upstream's since 1.33. A preemptor retried at once is not bound before its nominatedNodeName
     * is written (the binding cycle waits on {@link PendingNominations}).
     */
    public static final String POP_FROM_BACKOFF_Q = "SchedulerPopFromBackoffQ";

    /**
     * KEP-4832: preemption's API calls (deleting the victims, clearing lower-priority nominations)
     * run off the scheduling cycle, and the preemptor is kept out of the active queue until they
     * are done (the queue runs the PreEnqueue plugins whenever it moves a pod back, as upstream's
     * moveToActiveQ does). Beta and on by default, as upstream's since 1.33.
     */
    public static final String ASYNC_PREEMPTION = "SchedulerAsyncPreemption";

    private static final Map<String, Boolean> DEFAULTS = Map.of(POP_FROM_BACKOFF_Q, true, ASYNC_PREEMPTION, true);

    private final Map<String, Boolean> gates;

    private FeatureGates(Map<String, Boolean> gates) {
        this.gates = gates;
    }

    public static FeatureGates defaults() {
        return new FeatureGates(DEFAULTS);
    }

    /**
     * Reads {@code Name=bool} pairs separated by commas.
     *
     * @throws IllegalArgumentException naming the pair that is wrong and what would be valid
     */
    public static FeatureGates parse(String value) {
        Map<String, Boolean> gates = new LinkedHashMap<>(DEFAULTS);
        if (value == null || value.isBlank()) {
            return new FeatureGates(gates);
        }
        for (String pair : value.split(",")) {
            String p = pair.trim();
            if (p.isEmpty()) {
                continue;
            }
            int eq = p.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException(
                        "missing bool value for " + p + " (write " + p + "=true or " + p + "=false)");
            }
            String name = p.substring(0, eq).trim();
            String v = p.substring(eq + 1).trim();
            if (!DEFAULTS.containsKey(name)) {
                List<String> near = DEFAULTS.keySet().stream()
                        .filter(k -> EditDistance.of(name.toLowerCase(Locale.ROOT), k.toLowerCase(Locale.ROOT), 3) <= 3)
                        .sorted()
                        .toList();
                throw new IllegalArgumentException("unrecognized feature gate: " + name
                        + (near.isEmpty() ? "" : " (did you mean " + String.join(" or ", near) + "?)")
                        + "; known: "
                        + String.join(", ", DEFAULTS.keySet().stream().sorted().toList()));
            }
            if (!v.equals("true") && !v.equals("false")) {
                throw new IllegalArgumentException("invalid value of " + name + "=" + v + ": must be true or false");
            }
            gates.put(name, Boolean.parseBoolean(v));
        }
        return new FeatureGates(gates);
    }

    /** Whether {@code gate} is one of the gates this scheduler has. */
    public boolean known(String gate) {
        return gates.containsKey(gate);
    }

    public boolean enabled(String gate) {
        Boolean on = gates.get(gate);
        if (on == null) {
            throw new IllegalArgumentException("unknown feature gate " + gate);
        }
        return on;
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        gates.forEach(
                (k, v) -> b.append(b.isEmpty() ? "" : ",").append(k).append('=').append(v));
        return b.toString();
    }
}
