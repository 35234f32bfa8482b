package io.hotsched.embedded.standins;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetStatus;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetStatusBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToIntFunction;

/**
 * The status the disruption controller gives a PodDisruptionBudget, from the pods its selector
 * matches: {@code expectedPods} (the pods, for an integer {@code minAvailable}; else the
 * replicas their controllers want), {@code desiredHealthy}, {@code currentHealthy} (Ready pods not
 * terminating and not just evicted), {@code disruptionsAllowed} and the {@code DisruptionAllowed}
 * condition. Pure: the caller reads the cluster.
 */
final class DisruptionBudgets {

    /** How long an eviction the API server recorded in {@code disruptedPods} is awaited. */
    static final Duration DELETION_TIMEOUT = Duration.ofMinutes(2);

    static final String DISRUPTION_ALLOWED = "DisruptionAllowed";

    private DisruptionBudgets() {}

    /**
     * @param pods the pods of the budget's namespace its selector matches
     * @param replicasOf the replicas a pod's controller wants, negative when it has none (a bare pod)
     */
    static PodDisruptionBudgetStatus status(
            PodDisruptionBudget pdb, List<Pod> pods, ToIntFunction<Pod> replicasOf, Instant now) {
        Map<String, String> disrupted = new TreeMap<>();
        Map<String, String> recorded =
                pdb.getStatus() == null || pdb.getStatus().getDisruptedPods() == null
                        ? Map.of()
                        : pdb.getStatus().getDisruptedPods();
        int healthy = 0;
        for (Pod p : pods) {
            if (p.getMetadata().getDeletionTimestamp() != null) {
                continue;
            }
            String evicted = recorded.get(p.getMetadata().getName());
            if (evicted != null && Instant.parse(evicted).plus(DELETION_TIMEOUT).isAfter(now)) {
                disrupted.put(p.getMetadata().getName(), evicted);
                continue;
            }
            if (PodStates.ready(p)) {
                healthy++;
            }
        }
        IntOrString min = pdb.getSpec().getMinAvailable();
        IntOrString max = pdb.getSpec().getMaxUnavailable();
        int expected;
        int desired;
        String failure = null;
        if (min != null && min.getStrVal() == null) {
            expected = pods.size();
            desired = min.getIntVal();
        } else {
            expected = 0;
            java.util.Set<String> counted = new java.util.HashSet<>();
            for (Pod p : pods) {
                var owner = Ownership.controllerOf(p);
                if (owner != null && !counted.add(owner.getUid())) {
                    continue;
                }
                int replicas = owner == null ? -1 : replicasOf.applyAsInt(p);
                if (replicas < 0) {
                    failure =
                            "found no controllers for pod \"" + p.getMetadata().getName() + "\"";
                    break;
                }
                expected += replicas;
            }
            try {
                desired = min != null
                        ? scaled(min, expected)
                        : max == null ? expected : Math.max(0, expected - scaled(max, expected));
            } catch (NumberFormatException e) {
                desired = 0;
                failure = "invalid value for IntOrString: invalid value for percentage: "
                        + (min != null ? min.getStrVal() : max.getStrVal());
            }
        }
        if (failure != null) {
            return new PodDisruptionBudgetStatusBuilder()
                    .withObservedGeneration(pdb.getMetadata().getGeneration())
                    .withDisruptionsAllowed(0)
                    .withCurrentHealthy(healthy)
                    .withDisruptedPods(disrupted)
                    .withConditions(condition(false, "SyncFailed", failure, pdb, now))
                    .build();
        }
        int allowed = Math.max(0, healthy - desired);
        return new PodDisruptionBudgetStatusBuilder()
                .withObservedGeneration(pdb.getMetadata().getGeneration())
                .withExpectedPods(expected)
                .withDesiredHealthy(desired)
                .withCurrentHealthy(healthy)
                .withDisruptionsAllowed(allowed)
                .withDisruptedPods(disrupted)
                .withConditions(
                        condition(allowed > 0, allowed > 0 ? "SufficientPods" : "InsufficientPods", "", pdb, now))
                .build();
    }

    /** A percentage of {@code total}, rounded up (as the controller scales both fields); an integer as it is. */
    static int scaled(IntOrString value, int total) {
        if (value.getStrVal() == null) {
            return value.getIntVal();
        }
        String s = value.getStrVal().strip();
        int percent = Integer.parseInt(s.endsWith("%") ? s.substring(0, s.length() - 1) : s);
        return (int) Math.ceil(percent * (double) total / 100.0);
    }

    /** The condition, keeping its transition time when its status does not change. */
    private static Condition condition(
            boolean allowed, String reason, String message, PodDisruptionBudget pdb, Instant now) {
        String status = allowed ? "True" : "False";
        String since = now.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
        if (pdb.getStatus() != null && pdb.getStatus().getConditions() != null) {
            for (Condition c : pdb.getStatus().getConditions()) {
                if (DISRUPTION_ALLOWED.equals(c.getType()) && status.equals(c.getStatus())) {
                    since = c.getLastTransitionTime();
                }
            }
        }
        return new ConditionBuilder()
                .withType(DISRUPTION_ALLOWED)
                .withStatus(status)
                .withReason(reason)
                .withMessage(message)
                .withObservedGeneration(pdb.getMetadata().getGeneration())
                .withLastTransitionTime(since)
                .build();
    }
}
