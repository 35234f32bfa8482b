package io.hotsched.embedded.standins;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetStatus;
import io.fabric8.kubernetes.api.model.apps.StatefulSetStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Plays the StatefulSet controller: pods {@code <set>-<ordinal>} for ordinals from
 * {@code spec.ordinals.start} (0), each with a PVC {@code <template>-<set>-<ordinal>} per
 * {@code volumeClaimTemplates} entry (created before the pod, mounted as the template's name, as
 * upstream), hostname and subdomain set, and upstream's labels ({@code statefulset.kubernetes.io/pod-name},
 * {@code apps.kubernetes.io/pod-index}, {@code controller-revision-hash}). {@code OrderedReady}
 * (the default) creates a pod only once all lower ordinals are Running and Ready, and removes the
 * highest ordinal first, one at a time; {@code Parallel} does all at once. PVCs are kept when pods or
 * the set go (upstream's default retention, Retain), and get the set as owner with
 * {@code persistentVolumeClaimRetentionPolicy.whenDeleted: Delete}. A changed template is not rolled
 * out to existing pods (as {@code OnDelete}); ControllerRevisions are not written.
 */
final class StatefulSetStandIn extends OwnerController<StatefulSet, Pod> {

    StatefulSetStandIn(KubernetesClient client, LazyInformer<Pod> pods) {
        super(client, StatefulSet.class, "StatefulSet", pods);
    }

    @Override
    void sync(StatefulSet set, List<Pod> owned) {
        String name = set.getMetadata().getName();
        int replicas = set.getSpec().getReplicas() == null ? 1 : set.getSpec().getReplicas();
        int start = set.getSpec().getOrdinals() == null
                        || set.getSpec().getOrdinals().getStart() == null
                ? 0
                : set.getSpec().getOrdinals().getStart();
        boolean parallel = "Parallel".equals(set.getSpec().getPodManagementPolicy());
        String revision = name + "-" + Names.templateHash(set.getSpec().getTemplate(), null);
        TreeMap<Integer, Pod> byOrdinal = new TreeMap<>();
        for (Pod p : owned) {
            Integer ordinal = ordinal(name, p.getMetadata().getName());
            if (ordinal != null) {
                byOrdinal.put(ordinal, p);
            }
        }
        boolean blocked = false;
        for (int ordinal = start; ordinal < start + replicas && !blocked; ordinal++) {
            Pod p = byOrdinal.get(ordinal);
            if (p == null) {
                claims(set, ordinal);
                create(set, pod(set, ordinal, revision));
                blocked = !parallel;
            } else if (!parallel && !(PodStates.active(p) && PodStates.ready(p))) {
                blocked = true;
            }
        }
        List<Pod> condemned = new ArrayList<>(byOrdinal.descendingMap().entrySet().stream()
                .filter(e -> e.getKey() < start || e.getKey() >= start + replicas)
                .map(Map.Entry::getValue)
                .toList());
        if (!condemned.isEmpty()) {
            if (parallel) {
                condemned.stream()
                        .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                        .forEach(p -> delete(set, p));
            } else if (condemned.get(0).getMetadata().getDeletionTimestamp() == null) {
                delete(set, condemned.get(0));
            }
        }
        List<Pod> present =
                byOrdinal.values().stream().filter(PodStates::active).toList();
        int ready = (int) present.stream().filter(PodStates::ready).count();
        int updated = (int) present.stream()
                .filter(p -> revision.equals(p.getMetadata().getLabels().get("controller-revision-hash")))
                .count();
        StatefulSetStatus status = new StatefulSetStatusBuilder()
                .withObservedGeneration(set.getMetadata().getGeneration())
                .withReplicas(present.size())
                .withReadyReplicas(ready)
                .withAvailableReplicas(ready)
                .withCurrentReplicas(updated)
                .withUpdatedReplicas(updated)
                .withCurrentRevision(revision)
                .withUpdateRevision(revision)
                .withCollisionCount(0)
                .build();
        StatefulSet next = copy(set);
        next.setStatus(status);
        writeStatus(set, next, set.getStatus(), status);
    }

    /** The ordinal of pod {@code pod} of set {@code set}, or null when the name is not {@code <set>-<n>}. */
    static Integer ordinal(String set, String pod) {
        if (!pod.startsWith(set + "-")) {
            return null;
        }
        try {
            return Integer.parseInt(pod.substring(set.length() + 1));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private Pod pod(StatefulSet set, int ordinal, String revision) {
        String podName = set.getMetadata().getName() + "-" + ordinal;
        Map<String, String> labels = new HashMap<>();
        labels.put("statefulset.kubernetes.io/pod-name", podName);
        labels.put("apps.kubernetes.io/pod-index", Integer.toString(ordinal));
        labels.put("controller-revision-hash", revision);
        Pod p = PodTemplates.pod(set, set.getSpec().getTemplate(), podName, labels);
        p.getSpec().setHostname(podName);
        if (set.getSpec().getServiceName() != null
                && !set.getSpec().getServiceName().isEmpty()) {
            p.getSpec().setSubdomain(set.getSpec().getServiceName());
        }
        List<Volume> volumes = new ArrayList<>(
                p.getSpec().getVolumes() == null ? List.of() : p.getSpec().getVolumes());
        for (PersistentVolumeClaim t : templates(set)) {
            String claim = claimName(t, set, ordinal);
            volumes.removeIf(v -> v.getName().equals(t.getMetadata().getName()));
            volumes.add(new VolumeBuilder()
                    .withName(t.getMetadata().getName())
                    .withNewPersistentVolumeClaim()
                    .withClaimName(claim)
                    .endPersistentVolumeClaim()
                    .build());
        }
        p.getSpec().setVolumes(volumes);
        return p;
    }

    /** Creates the ordinal's PVCs that do not exist yet. */
    private void claims(StatefulSet set, int ordinal) {
        boolean owned = set.getSpec().getPersistentVolumeClaimRetentionPolicy() != null
                && "Delete"
                        .equals(set.getSpec()
                                .getPersistentVolumeClaimRetentionPolicy()
                                .getWhenDeleted());
        for (PersistentVolumeClaim t : templates(set)) {
            ObjectMeta tm = t.getMetadata();
            Map<String, String> labels = new HashMap<>(tm.getLabels() == null ? Map.of() : tm.getLabels());
            if (set.getSpec().getSelector() != null
                    && set.getSpec().getSelector().getMatchLabels() != null) {
                labels.putAll(set.getSpec().getSelector().getMatchLabels());
            }
            PersistentVolumeClaimBuilder claim = new PersistentVolumeClaimBuilder()
                    .withNewMetadata()
                    .withName(claimName(t, set, ordinal))
                    .withNamespace(set.getMetadata().getNamespace())
                    .withLabels(labels)
                    .withAnnotations(tm.getAnnotations())
                    .endMetadata()
                    .withSpec(copy(t.getSpec()));
            if (owned) {
                claim.editMetadata()
                        .withOwnerReferences(Ownership.controllerRef(set))
                        .endMetadata();
            }
            createIfAbsent(client, claim.build());
        }
    }

    private static List<PersistentVolumeClaim> templates(StatefulSet set) {
        return set.getSpec().getVolumeClaimTemplates() == null
                ? List.of()
                : set.getSpec().getVolumeClaimTemplates();
    }

    /** Upstream's claim name: {@code <template>-<set>-<ordinal>}. */
    static String claimName(PersistentVolumeClaim template, StatefulSet set, int ordinal) {
        return template.getMetadata().getName() + "-" + set.getMetadata().getName() + "-" + ordinal;
    }
}
