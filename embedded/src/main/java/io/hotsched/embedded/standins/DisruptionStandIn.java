package io.hotsched.embedded.standins;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Plays kube-controller-manager's disruption controller: keeps each PodDisruptionBudget's status
 * ({@link DisruptionBudgets}) in step with its pods, so that the eviction API (kubectl drain) and
 * the scheduler's preemption, which both read {@code status.disruptionsAllowed}, see what a real
 * cluster shows. The pod informer runs only while a budget exists.
 */
final class DisruptionStandIn implements AutoCloseable {

    private final KubernetesClient client;
    private final LazyInformer<Pod> pods;
    private final WorkQueue queue = new WorkQueue("disruption-controller", this::sync);
    private volatile SharedIndexInformer<PodDisruptionBudget> budgets;

    DisruptionStandIn(KubernetesClient client, LazyInformer<Pod> pods) {
        this.client = client;
        this.pods = pods;
    }

    void start() {
        // made before the pods' handler: a running pod informer hands it the pods it has at once
        budgets = client.policy().v1().podDisruptionBudget().inAnyNamespace().runnableInformer(0);
        pods.addHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Pod p) {
                budgetsOf(p);
            }

            @Override
            public void onUpdate(Pod old, Pod p) {
                budgetsOf(p);
            }

            @Override
            public void onDelete(Pod p, boolean unknownFinalState) {
                budgetsOf(p);
            }
        });
        budgets.addEventHandler(queue.keysOf(b -> released()));
        budgets.run();
    }

    /** A pod changed: each budget of its namespace may count it, before or after the change. */
    private void budgetsOf(Pod p) {
        for (PodDisruptionBudget b : budgets.getStore().list()) {
            if (b.getMetadata().getNamespace().equals(p.getMetadata().getNamespace())) {
                queue.add(Ownership.key(b));
            }
        }
    }

    private void released() {
        if (budgets.getStore().list().isEmpty()) {
            pods.need(this, false);
        }
    }

    private void sync(String key) {
        PodDisruptionBudget b = budgets.getStore().getByKey(key);
        if (b == null) {
            return;
        }
        pods.need(this, true);
        String namespace = b.getMetadata().getNamespace();
        List<Pod> matching = pods.all().stream()
                .filter(p -> namespace.equals(p.getMetadata().getNamespace()))
                .filter(p -> b.getSpec().getSelector() != null
                        && VolumeMatch.selects(
                                b.getSpec().getSelector(), p.getMetadata().getLabels()))
                .toList();
        PodDisruptionBudgetStatus status = DisruptionBudgets.status(b, matching, this::replicasOf, Instant.now());
        if (!status.getDisruptedPods().isEmpty()) {
            queue.addAfter(key, DisruptionBudgets.DELETION_TIMEOUT);
        }
        if (Objects.equals(status, b.getStatus())) {
            return;
        }
        // at the version read: a conflict with an eviction's decrement fails, and the queue retries
        client.resource(new PodDisruptionBudgetBuilder(b).withStatus(status).build())
                .updateStatus();
    }

    /** The replicas the controller of {@code p} asks for (a Deployment's, for a ReplicaSet it owns); -1 without one. */
    private int replicasOf(Pod p) {
        OwnerReference owner = Ownership.controllerOf(p);
        if (owner == null) {
            return -1;
        }
        String ns = p.getMetadata().getNamespace();
        Integer replicas = switch (owner.getKind()) {
            case "ReplicaSet" -> {
                var rs = client.apps()
                        .replicaSets()
                        .inNamespace(ns)
                        .withName(owner.getName())
                        .get();
                OwnerReference deployment = rs == null ? null : Ownership.controllerOf(rs);
                if (deployment != null && deployment.getKind().equals("Deployment")) {
                    var d = client.apps()
                            .deployments()
                            .inNamespace(ns)
                            .withName(deployment.getName())
                            .get();
                    yield d == null ? null : d.getSpec().getReplicas();
                }
                yield rs == null ? null : rs.getSpec().getReplicas();
            }
            case "StatefulSet" -> {
                var s = client.apps()
                        .statefulSets()
                        .inNamespace(ns)
                        .withName(owner.getName())
                        .get();
                yield s == null ? null : s.getSpec().getReplicas();
            }
            case "ReplicationController" -> {
                var rc = client.replicationControllers()
                        .inNamespace(ns)
                        .withName(owner.getName())
                        .get();
                yield rc == null ? null : rc.getSpec().getReplicas();
            }
            default -> null;
        };
        return replicas == null ? -1 : replicas;
    }

    @Override
    public void close() {
        queue.close();
        if (budgets != null) {
            budgets.stop();
        }
        pods.need(this, false);
    }
}
