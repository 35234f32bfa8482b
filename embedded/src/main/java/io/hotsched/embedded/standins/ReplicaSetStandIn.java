package io.hotsched.embedded.standins;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetStatus;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Plays the ReplicaSet controller: keeps {@code spec.replicas} active pods, made from the template
 * with the set as their controller, and reports {@code status.replicas}, {@code readyReplicas},
 * {@code availableReplicas} (ready; {@code minReadySeconds} is not waited for) and
 * {@code observedGeneration}. Scaling down deletes the pods upstream deletes first: unassigned,
 * then pending, then not ready, then the newest.
 */
final class ReplicaSetStandIn extends OwnerController<ReplicaSet, Pod> {

    /** At most this many pods created or deleted per pass, as upstream's burstReplicas. */
    private static final int BURST = 500;

    ReplicaSetStandIn(KubernetesClient client, LazyInformer<Pod> pods) {
        super(client, ReplicaSet.class, "ReplicaSet", pods);
    }

    @Override
    void sync(ReplicaSet rs, List<Pod> owned) {
        List<Pod> active = owned.stream().filter(PodStates::active).toList();
        int wanted = rs.getSpec().getReplicas() == null ? 1 : rs.getSpec().getReplicas();
        int diff = wanted - active.size();
        if (diff > 0) {
            for (int i = 0; i < Math.min(diff, BURST); i++) {
                create(rs, PodTemplates.generated(rs, rs.getSpec().getTemplate(), Map.of()));
            }
        } else if (diff < 0) {
            List<Pod> ranked = new ArrayList<>(active);
            ranked.sort(DELETE_FIRST);
            for (Pod p : ranked.subList(0, Math.min(-diff, BURST))) {
                delete(rs, p);
            }
        }
        int ready = (int) active.stream().filter(PodStates::ready).count();
        ReplicaSetStatus status = new ReplicaSetStatusBuilder()
                .withReplicas(active.size())
                .withFullyLabeledReplicas(active.size())
                .withReadyReplicas(ready)
                .withAvailableReplicas(ready)
                .withObservedGeneration(rs.getMetadata().getGeneration())
                .build();
        ReplicaSet next = copy(rs);
        next.setStatus(status);
        writeStatus(rs, next, rs.getStatus(), status);
    }

    /** Upstream's ActivePods order for deletion: unassigned, pending, not ready, then newest first. */
    private static final Comparator<Pod> DELETE_FIRST = Comparator.<Pod, Boolean>comparing(PodStates::assigned)
            .thenComparing(p -> !"Pending".equals(PodStates.phase(p)))
            .thenComparing(PodStates::ready)
            .thenComparing(
                    p -> p.getMetadata().getCreationTimestamp() == null
                            ? ""
                            : p.getMetadata().getCreationTimestamp(),
                    Comparator.reverseOrder());
}
