package io.hotsched.embedded.standins;

import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAffinity;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.DaemonSetStatus;
import io.fabric8.kubernetes.api.model.apps.DaemonSetStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Plays the DaemonSet controller: one pod per node the pod belongs on ({@link NodeFit}), left to the
 * scheduler as upstream leaves it: not bound, but with a required node affinity
 * {@code matchFields metadata.name In [node]} in place of the template's required terms, and with
 * the tolerations upstream adds to every DaemonSet pod. Pods on nodes they no longer belong on are
 * deleted, and so are extra pods on a node. Status counts as upstream's. A changed template is not
 * rolled out to existing pods (as {@code OnDelete}).
 */
final class DaemonSetStandIn extends OwnerController<DaemonSet, Pod> {

    private final LazyInformer<Node> nodes;

    DaemonSetStandIn(KubernetesClient client, LazyInformer<Pod> pods, LazyInformer<Node> nodes) {
        super(client, DaemonSet.class, "DaemonSet", pods);
        this.nodes = nodes;
        nodes.addHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Node n) {
                requeueAll();
            }

            @Override
            public void onUpdate(Node old, Node n) {
                if (!java.util.Objects.equals(
                                old.getMetadata().getLabels(), n.getMetadata().getLabels())
                        || !java.util.Objects.equals(old.getSpec(), n.getSpec())) {
                    requeueAll();
                }
            }

            @Override
            public void onDelete(Node n, boolean unknownFinalState) {
                requeueAll();
            }
        });
    }

    private void requeueAll() {
        owners().forEach(ds -> requeue(Ownership.key(ds)));
    }

    @Override
    void needOthers(boolean needed) {
        nodes.need(this, needed);
    }

    @Override
    void sync(DaemonSet ds, List<Pod> owned) {
        String hash = Names.templateHash(
                ds.getSpec().getTemplate(),
                ds.getStatus() == null ? null : ds.getStatus().getCollisionCount());
        PodTemplateSpec template = copy(ds.getSpec().getTemplate());
        addDaemonTolerations(template.getSpec());
        Map<String, List<Pod>> byNode = new HashMap<>();
        for (Pod p : owned) {
            if (PodStates.active(p)) {
                byNode.computeIfAbsent(targetNode(p), k -> new ArrayList<>()).add(p);
            }
        }
        int desired = 0;
        int scheduled = 0;
        int misscheduled = 0;
        int ready = 0;
        int updated = 0;
        for (Node node : nodes.all()) {
            String name = node.getMetadata().getName();
            List<Pod> there = byNode.remove(name);
            if (NodeFit.shouldRun(template.getSpec(), node)) {
                desired++;
                if (there == null) {
                    create(ds, pod(ds, template, hash, name));
                    continue;
                }
                scheduled++;
                there.subList(1, there.size()).forEach(p -> delete(ds, p));
                Pod p = there.get(0);
                ready += PodStates.ready(p) ? 1 : 0;
                updated += hash.equals(p.getMetadata().getLabels().get("controller-revision-hash")) ? 1 : 0;
            } else if (there != null) {
                misscheduled += PodStates.assigned(there.get(0)) ? 1 : 0;
                if (!NodeFit.shouldContinueRunning(template.getSpec(), node)) {
                    there.forEach(p -> delete(ds, p));
                }
            }
        }
        // pods of nodes that are gone
        byNode.values().forEach(ps -> ps.forEach(p -> delete(ds, p)));
        DaemonSetStatus status = new DaemonSetStatusBuilder()
                .withObservedGeneration(ds.getMetadata().getGeneration())
                .withDesiredNumberScheduled(desired)
                .withCurrentNumberScheduled(scheduled)
                .withNumberMisscheduled(misscheduled)
                .withNumberReady(ready)
                .withNumberAvailable(ready)
                .withNumberUnavailable(desired - ready)
                .withUpdatedNumberScheduled(updated)
                .withCollisionCount(
                        ds.getStatus() == null ? null : ds.getStatus().getCollisionCount())
                .build();
        DaemonSet next = copy(ds);
        next.setStatus(status);
        writeStatus(ds, next, ds.getStatus(), status);
    }

    private static Pod pod(DaemonSet ds, PodTemplateSpec template, String hash, String node) {
        Map<String, String> labels = new HashMap<>();
        labels.put("controller-revision-hash", hash);
        labels.put("pod-template-generation", String.valueOf(ds.getMetadata().getGeneration()));
        Pod p = PodTemplates.generated(ds, template, labels);
        p.getSpec().setAffinity(onNode(p.getSpec().getAffinity(), node));
        return p;
    }

    /** The node a DaemonSet pod is for: where it is bound, or what its affinity names. */
    static String targetNode(Pod p) {
        if (PodStates.assigned(p)) {
            return p.getSpec().getNodeName();
        }
        Affinity a = p.getSpec().getAffinity();
        if (a != null
                && a.getNodeAffinity() != null
                && a.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution() != null) {
            for (NodeSelectorTerm t : a.getNodeAffinity()
                    .getRequiredDuringSchedulingIgnoredDuringExecution()
                    .getNodeSelectorTerms()) {
                for (NodeSelectorRequirement r :
                        t.getMatchFields() == null ? List.<NodeSelectorRequirement>of() : t.getMatchFields()) {
                    if ("metadata.name".equals(r.getKey())
                            && r.getValues() != null
                            && r.getValues().size() == 1) {
                        return r.getValues().get(0);
                    }
                }
            }
        }
        return "";
    }

    /** Upstream's ReplaceDaemonSetPodNodeNameNodeAffinity: the required terms become the one node. */
    static Affinity onNode(Affinity affinity, String node) {
        NodeSelector selector = new NodeSelectorBuilder()
                .addNewNodeSelectorTerm()
                .addNewMatchField()
                .withKey("metadata.name")
                .withOperator("In")
                .withValues(node)
                .endMatchField()
                .endNodeSelectorTerm()
                .build();
        Affinity a = affinity == null ? new Affinity() : affinity;
        if (a.getNodeAffinity() == null) {
            a.setNodeAffinity(new NodeAffinity());
        }
        a.getNodeAffinity().setRequiredDuringSchedulingIgnoredDuringExecution(selector);
        return a;
    }

    /** Upstream's AddOrUpdateDaemonPodTolerations. */
    static void addDaemonTolerations(PodSpec spec) {
        List<Toleration> t = new ArrayList<>(spec.getTolerations() == null ? List.of() : spec.getTolerations());
        put(t, "node.kubernetes.io/not-ready", "NoExecute");
        put(t, "node.kubernetes.io/unreachable", "NoExecute");
        put(t, "node.kubernetes.io/disk-pressure", "NoSchedule");
        put(t, "node.kubernetes.io/memory-pressure", "NoSchedule");
        put(t, "node.kubernetes.io/pid-pressure", "NoSchedule");
        put(t, "node.kubernetes.io/unschedulable", "NoSchedule");
        if (Boolean.TRUE.equals(spec.getHostNetwork())) {
            put(t, "node.kubernetes.io/network-unavailable", "NoSchedule");
        }
        spec.setTolerations(t);
    }

    /** Adds an Exists toleration of {@code key}:{@code effect}, replacing one of the same key and effect. */
    private static void put(List<Toleration> tolerations, String key, String effect) {
        tolerations.removeIf(x -> key.equals(x.getKey()) && effect.equals(x.getEffect()));
        tolerations.add(new TolerationBuilder()
                .withKey(key)
                .withOperator("Exists")
                .withEffect(effect)
                .build());
    }
}
