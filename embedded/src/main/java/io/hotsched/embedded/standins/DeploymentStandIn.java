package io.hotsched.embedded.standins;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentCondition;
import io.fabric8.kubernetes.api.model.apps.DeploymentConditionBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Plays the Deployment controller: one ReplicaSet per pod template, named
 * {@code <deployment>-<pod-template-hash>} and labelled with that hash (its selector and template
 * too), with upstream's revision annotations; status and conditions as upstream reports them, so
 * that {@code kubectl rollout status} ends.
 *
 * <p>Roll-outs are simpler than upstream's: with {@code RollingUpdate}, the new ReplicaSet is scaled
 * to all replicas at once and the old ones to zero once all of the new are available (as if
 * {@code maxSurge} were 100 %); with {@code Recreate}, the old ones go to zero first and the new
 * one is scaled up once their pods are gone. Old ReplicaSets beyond {@code revisionHistoryLimit}
 * are deleted. Pausing and progress deadlines are not played.
 */
final class DeploymentStandIn extends OwnerController<Deployment, ReplicaSet> {

    static final String HASH = "pod-template-hash";
    static final String REVISION = "deployment.kubernetes.io/revision";
    static final String DESIRED = "deployment.kubernetes.io/desired-replicas";
    static final String MAX = "deployment.kubernetes.io/max-replicas";

    DeploymentStandIn(KubernetesClient client, LazyInformer<ReplicaSet> replicaSets) {
        super(client, Deployment.class, "Deployment", replicaSets);
    }

    @Override
    void sync(Deployment d, List<ReplicaSet> owned) {
        int replicas = d.getSpec().getReplicas() == null ? 1 : d.getSpec().getReplicas();
        Integer collisions = d.getStatus() == null ? null : d.getStatus().getCollisionCount();
        String hash = Names.templateHash(d.getSpec().getTemplate(), collisions);
        ReplicaSet current = null;
        List<ReplicaSet> old = new ArrayList<>();
        for (ReplicaSet rs : owned) {
            if (hash.equals(label(rs, HASH))) {
                current = rs;
            } else {
                old.add(rs);
            }
        }
        boolean recreate = d.getSpec().getStrategy() != null
                && "Recreate".equals(d.getSpec().getStrategy().getType());
        if (current == null) {
            long revision =
                    owned.stream().mapToLong(DeploymentStandIn::revision).max().orElse(0) + 1;
            boolean oldRunning = old.stream().anyMatch(rs -> specReplicas(rs) > 0 || statusReplicas(rs) > 0);
            create(d, newReplicaSet(d, hash, revision, recreate && oldRunning ? 0 : replicas));
            return;
        }
        if (recreate) {
            old.stream().filter(rs -> specReplicas(rs) > 0).forEach(rs -> scale(rs, 0));
            if (old.stream().allMatch(rs -> statusReplicas(rs) == 0)) {
                scale(current, replicas);
            }
        } else {
            scale(current, replicas);
            if (available(current) >= replicas) {
                old.stream().filter(rs -> specReplicas(rs) > 0).forEach(rs -> scale(rs, 0));
            }
        }
        pruneHistory(d, old);
        String revision = annotation(current, REVISION);
        if (revision != null && !revision.equals(annotation(d, REVISION))) {
            patch(d, "{\"metadata\":{\"annotations\":{\"" + REVISION + "\":\"" + revision + "\"}}}");
        }
        DeploymentStatus status = status(d, replicas, current, owned);
        Deployment next = copy(d);
        next.setStatus(status);
        writeStatus(d, next, d.getStatus(), status);
    }

    private ReplicaSet newReplicaSet(Deployment d, String hash, long revision, int replicas) {
        PodTemplateSpec template = copy(d.getSpec().getTemplate());
        if (template.getMetadata() == null) {
            template.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMeta());
        }
        Map<String, String> labels = new HashMap<>(
                template.getMetadata().getLabels() == null
                        ? Map.of()
                        : template.getMetadata().getLabels());
        labels.put(HASH, hash);
        template.getMetadata().setLabels(labels);
        LabelSelector selector = new LabelSelectorBuilder(copy(d.getSpec().getSelector()))
                .addToMatchLabels(HASH, hash)
                .build();
        return new ReplicaSetBuilder()
                .withNewMetadata()
                .withName(d.getMetadata().getName() + "-" + hash)
                .withNamespace(d.getMetadata().getNamespace())
                .withLabels(labels)
                .addToAnnotations(REVISION, Long.toString(revision))
                .addToAnnotations(DESIRED, Integer.toString(replicas(d)))
                .addToAnnotations(MAX, Integer.toString(replicas(d) + surge(d)))
                .withOwnerReferences(Ownership.controllerRef(d))
                .endMetadata()
                .withNewSpec()
                .withReplicas(replicas)
                .withMinReadySeconds(d.getSpec().getMinReadySeconds())
                .withSelector(selector)
                .withTemplate(template)
                .endSpec()
                .build();
    }

    private DeploymentStatus status(Deployment d, int replicas, ReplicaSet current, List<ReplicaSet> all) {
        int total = all.stream().mapToInt(DeploymentStandIn::statusReplicas).sum();
        int ready = all.stream()
                .mapToInt(rs -> rs.getStatus() == null || rs.getStatus().getReadyReplicas() == null
                        ? 0
                        : rs.getStatus().getReadyReplicas())
                .sum();
        int available = all.stream().mapToInt(DeploymentStandIn::available).sum();
        int updated = statusReplicas(current);
        int desiredTotal =
                all.stream().mapToInt(DeploymentStandIn::specReplicas).sum();
        boolean minimum = available >= replicas - unavailableAllowed(d, replicas);
        boolean complete = updated == replicas && total == replicas && available == replicas;
        String rsName = current.getMetadata().getName();
        List<DeploymentCondition> previous =
                d.getStatus() == null || d.getStatus().getConditions() == null
                        ? List.of()
                        : d.getStatus().getConditions();
        List<DeploymentCondition> conditions = List.of(
                condition(
                        previous,
                        "Available",
                        minimum ? "True" : "False",
                        minimum ? "MinimumReplicasAvailable" : "MinimumReplicasUnavailable",
                        minimum
                                ? "Deployment has minimum availability."
                                : "Deployment does not have minimum availability."),
                condition(
                        previous,
                        "Progressing",
                        "True",
                        complete ? "NewReplicaSetAvailable" : "ReplicaSetUpdated",
                        complete
                                ? "ReplicaSet \"" + rsName + "\" has successfully progressed."
                                : "ReplicaSet \"" + rsName + "\" is progressing."));
        return new DeploymentStatusBuilder()
                .withObservedGeneration(d.getMetadata().getGeneration())
                .withReplicas(total)
                .withUpdatedReplicas(updated)
                .withReadyReplicas(ready)
                .withAvailableReplicas(available)
                .withUnavailableReplicas(Math.max(0, desiredTotal - available))
                .withConditions(conditions)
                .withCollisionCount(d.getStatus() == null ? null : d.getStatus().getCollisionCount())
                .build();
    }

    /** The condition as it was when nothing about it changed (its times too), else a new one of now. */
    private static DeploymentCondition condition(
            List<DeploymentCondition> previous, String type, String status, String reason, String message) {
        for (DeploymentCondition c : previous) {
            if (type.equals(c.getType())
                    && status.equals(c.getStatus())
                    && reason.equals(c.getReason())
                    && message.equals(c.getMessage())) {
                return c;
            }
        }
        String transition = Conditions.now();
        for (DeploymentCondition c : previous) {
            if (type.equals(c.getType()) && status.equals(c.getStatus())) {
                transition = c.getLastTransitionTime();
            }
        }
        return new DeploymentConditionBuilder()
                .withType(type)
                .withStatus(status)
                .withReason(reason)
                .withMessage(message)
                .withLastUpdateTime(Conditions.now())
                .withLastTransitionTime(transition)
                .build();
    }

    /** Deletes the oldest scaled-down ReplicaSets beyond {@code revisionHistoryLimit} (default 10). */
    private void pruneHistory(Deployment d, List<ReplicaSet> old) {
        int limit =
                d.getSpec().getRevisionHistoryLimit() == null ? 10 : d.getSpec().getRevisionHistoryLimit();
        List<ReplicaSet> idle = new ArrayList<>(old.stream()
                .filter(rs -> specReplicas(rs) == 0 && statusReplicas(rs) == 0)
                .toList());
        idle.sort(Comparator.comparingLong(DeploymentStandIn::revision));
        for (ReplicaSet rs : idle.subList(0, Math.max(0, idle.size() - limit))) {
            client.resource(rs).delete();
        }
    }

    private void scale(ReplicaSet rs, int replicas) {
        if (specReplicas(rs) != replicas) {
            client.apps()
                    .replicaSets()
                    .inNamespace(rs.getMetadata().getNamespace())
                    .withName(rs.getMetadata().getName())
                    .patch(
                            PatchContext.of(PatchType.JSON_MERGE),
                            "{\"metadata\":{\"annotations\":{\"" + DESIRED + "\":\"" + replicas + "\"}},"
                                    + "\"spec\":{\"replicas\":" + replicas + "}}");
        }
    }

    private void patch(Deployment d, String mergePatch) {
        client.apps()
                .deployments()
                .inNamespace(d.getMetadata().getNamespace())
                .withName(d.getMetadata().getName())
                .patch(PatchContext.of(PatchType.JSON_MERGE), mergePatch);
    }

    private static int replicas(Deployment d) {
        return d.getSpec().getReplicas() == null ? 1 : d.getSpec().getReplicas();
    }

    /** maxSurge of a rolling update, rounded up (25 % by default); 0 for Recreate. */
    private static int surge(Deployment d) {
        return rolling(d, replicas(d), true);
    }

    /** maxUnavailable of a rolling update, rounded down (25 % by default); 0 for Recreate. */
    private static int unavailableAllowed(Deployment d, int replicas) {
        return Math.min(replicas, rolling(d, replicas, false));
    }

    private static int rolling(Deployment d, int replicas, boolean surge) {
        if (d.getSpec().getStrategy() != null
                && "Recreate".equals(d.getSpec().getStrategy().getType())) {
            return 0;
        }
        var update = d.getSpec().getStrategy() == null
                ? null
                : d.getSpec().getStrategy().getRollingUpdate();
        IntOrString v = update == null ? null : surge ? update.getMaxSurge() : update.getMaxUnavailable();
        return scaled(v, replicas, surge);
    }

    private static int scaled(IntOrString v, int total, boolean roundUp) {
        if (v != null && v.getIntVal() != null) {
            return v.getIntVal();
        }
        String s = v == null || v.getStrVal() == null ? "25%" : v.getStrVal();
        int percent = Integer.parseInt(s.replace("%", "").strip());
        return roundUp ? (int) Math.ceil(total * percent / 100.0) : (int) Math.floor(total * percent / 100.0);
    }

    private static int specReplicas(ReplicaSet rs) {
        return rs.getSpec().getReplicas() == null ? 1 : rs.getSpec().getReplicas();
    }

    private static int statusReplicas(ReplicaSet rs) {
        return rs.getStatus() == null || rs.getStatus().getReplicas() == null
                ? 0
                : rs.getStatus().getReplicas();
    }

    private static int available(ReplicaSet rs) {
        return rs.getStatus() == null || rs.getStatus().getAvailableReplicas() == null
                ? 0
                : rs.getStatus().getAvailableReplicas();
    }

    private static long revision(ReplicaSet rs) {
        String r = annotation(rs, REVISION);
        try {
            return r == null ? 0 : Long.parseLong(r);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static String label(io.fabric8.kubernetes.api.model.HasMetadata o, String key) {
        return o.getMetadata().getLabels() == null
                ? null
                : o.getMetadata().getLabels().get(key);
    }

    private static String annotation(io.fabric8.kubernetes.api.model.HasMetadata o, String key) {
        return o.getMetadata().getAnnotations() == null
                ? null
                : o.getMetadata().getAnnotations().get(key);
    }
}
