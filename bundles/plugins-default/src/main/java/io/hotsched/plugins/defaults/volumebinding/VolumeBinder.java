package io.hotsched.plugins.defaults.volumebinding;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.storage.CSIDriver;
import io.fabric8.kubernetes.api.model.storage.CSIStorageCapacity;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.hotsched.api.framework.ClusterClient;
import io.hotsched.api.framework.LabelSelector;
import io.hotsched.api.framework.Listers;
import io.hotsched.api.framework.ObjectKind;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Reservations;
import io.hotsched.plugins.defaults.helper.Claims;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The decisions and writes behind VolumeBinding (upstream's volume binder): sorting a pod's claims,
 * finding volumes or provisioning for the unbound ones on a node, assuming the choice in this
 * instance's caches, writing it to the API server, and checking that the PersistentVolume
 * controller finished the binding. A failure is an {@link IllegalStateException} with upstream's
 * message.
 */
final class VolumeBinder {

    static final String REASON_BIND_CONFLICT = "node(s) didn't find available persistent volumes to bind";
    static final String REASON_NODE_CONFLICT = "node(s) had volume node affinity conflict";
    static final String REASON_NOT_ENOUGH_SPACE = "node(s) did not have enough free storage";
    static final String REASON_PV_NOT_EXIST =
            "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)";

    static final String SELECTED_NODE = "volume.kubernetes.io/selected-node";
    static final String BIND_COMPLETED = "pv.kubernetes.io/bind-completed";
    static final String BOUND_BY_CONTROLLER = "pv.kubernetes.io/bound-by-controller";

    /** The outcome of Filter's search on one node: the volumes found, or why the node does not do. */
    record Found(PodVolumes volumes, List<String> reasons) {}

    private final Listers listers;
    final AssumeCache<PersistentVolume> pvs;
    final AssumeCache<PersistentVolumeClaim> pvcs;
    private final SharedAssumptions shared = new SharedAssumptions();

    VolumeBinder(Listers listers) {
        this.listers = listers;
        this.pvs = new AssumeCache<>(ObjectKind.PERSISTENT_VOLUME, listers.persistentVolumes(), shared::volume);
        this.pvcs =
                new AssumeCache<>(ObjectKind.PERSISTENT_VOLUME_CLAIM, listers.persistentVolumeClaims(), shared::claim);
    }

    /** Takes in what every instance has recorded as assumed now (before a pod's Filter). */
    void refreshShared(List<Reservations.Reservation> records) {
        shared.refresh(records, pvs, pvcs);
    }

    static boolean fullyBound(PersistentVolumeClaim c) {
        String v = c.getSpec() == null ? null : c.getSpec().getVolumeName();
        return v != null
                && !v.isEmpty()
                && c.getMetadata().getAnnotations() != null
                && c.getMetadata().getAnnotations().containsKey(BIND_COMPLETED);
    }

    /** The pod's claims, sorted as PreFilter needs them. */
    PodVolumeClaims claims(PodInfo pod) {
        List<PersistentVolumeClaim> bound = new ArrayList<>();
        List<PersistentVolumeClaim> delayed = new ArrayList<>();
        List<PersistentVolumeClaim> immediate = new ArrayList<>();
        for (Volume v : Claims.volumes(pod)) {
            String name = Claims.claimName(pod, v);
            if (name == null) {
                continue;
            }
            PersistentVolumeClaim c = claim(pod, v, name);
            if (fullyBound(c)) {
                bound.add(c);
            } else if (delayBinding(c)
                    && (c.getSpec().getVolumeName() == null
                            || c.getSpec().getVolumeName().isEmpty())) {
                delayed.add(c);
            } else {
                // prebound claims count as immediate: the PersistentVolume controller finishes them
                immediate.add(c);
            }
        }
        Map<String, List<PersistentVolume>> byClass = new HashMap<>();
        for (PersistentVolumeClaim c : delayed) {
            String className = Claims.storageClassOf(c);
            byClass.computeIfAbsent(
                    className, k -> pvs.list(pv -> VolumeMatch.classOf(pv).equals(k)));
        }
        return new PodVolumeClaims(List.copyOf(bound), List.copyOf(delayed), List.copyOf(immediate), byClass);
    }

    private PersistentVolumeClaim claim(PodInfo pod, Volume v, String name) {
        PersistentVolumeClaim c = pvcs.get(pod.namespace(), name);
        if (c == null) {
            throw new IllegalStateException("error getting PVC \"" + pod.namespace() + "/" + name + "\": "
                    + Claims.notFound(ObjectKind.PERSISTENT_VOLUME_CLAIM, name));
        }
        if (v.getEphemeral() != null) {
            String notOwned = Claims.notForPod(pod, c);
            if (notOwned != null) {
                throw new IllegalStateException(notOwned);
            }
        }
        return c;
    }

    /** Whether the claim's class binds on the first consumer; a class that is not there binds immediately. */
    private boolean delayBinding(PersistentVolumeClaim c) {
        String className = Claims.storageClassOf(c);
        if (className.isEmpty()) {
            return false;
        }
        StorageClass sc = listers.storageClasses().get(className);
        if (sc == null) {
            return false;
        }
        if (sc.getVolumeBindingMode() == null) {
            throw new IllegalStateException("VolumeBindingMode not set for StorageClass \"" + className + "\"");
        }
        return "WaitForFirstConsumer".equals(sc.getVolumeBindingMode());
    }

    /** Whether the pod's claims are all fully bound (no API update is needed). */
    boolean allBound(PodInfo pod) {
        for (Volume v : Claims.volumes(pod)) {
            String name = Claims.claimName(pod, v);
            if (name == null) {
                continue;
            }
            PersistentVolumeClaim c = pvcs.get(pod.namespace(), name);
            if (c == null || !fullyBound(c)) {
                return false;
            }
        }
        return true;
    }

    /** Filter's search on one node. */
    Found find(PodVolumeClaims claims, Node node) {
        Node labelsOnly = VolumeMatch.withLabels(node.getMetadata().getLabels());
        boolean boundSatisfied = true;
        boolean pvsFound = true;
        boolean unboundSatisfied = true;
        boolean enoughSpace = true;
        List<PodVolumes.Binding> bindings = new ArrayList<>();
        List<PodVolumes.Provision> provisions = new ArrayList<>();
        boundLoop:
        for (PersistentVolumeClaim c : claims.bound()) {
            PersistentVolume pv = pvs.get(null, c.getSpec().getVolumeName());
            if (pv == null) {
                pvsFound = false;
                break boundLoop;
            }
            PersistentVolume onNode = MigratedTopology.onNode(
                    pv, listers.csiNodes().get(node.getMetadata().getName()));
            if (VolumeMatch.nodeAffinityError(onNode, labelsOnly) != null) {
                boundSatisfied = false;
                break boundLoop;
            }
        }
        search:
        if (!claims.unboundDelayBinding().isEmpty()) {
            List<PersistentVolumeClaim> toMatch = new ArrayList<>();
            List<PersistentVolumeClaim> toProvision = new ArrayList<>();
            for (PersistentVolumeClaim c : claims.unboundDelayBinding()) {
                String selected = c.getMetadata().getAnnotations() == null
                        ? null
                        : c.getMetadata().getAnnotations().get(SELECTED_NODE);
                if (selected != null) {
                    if (!selected.equals(node.getMetadata().getName())) {
                        unboundSatisfied = false;
                        break search;
                    }
                    toProvision.add(c);
                } else {
                    toMatch.add(c);
                }
            }
            if (!toMatch.isEmpty()) {
                // the smallest claims choose first, so each gets the smallest volume that fits
                toMatch.sort(Comparator.comparing(c -> VolumeMatch.bytes(VolumeMatch.storageRequest(c))));
                Set<String> chosen = new HashSet<>();
                for (PersistentVolumeClaim c : toMatch) {
                    List<PersistentVolume> candidates =
                            claims.volumesByClass().getOrDefault(Claims.storageClassOf(c), List.of());
                    PersistentVolume pv = VolumeMatch.find(c, candidates, labelsOnly, chosen);
                    if (pv == null) {
                        toProvision.add(c);
                        unboundSatisfied = false;
                        continue;
                    }
                    chosen.add(pv.getMetadata().getName());
                    bindings.add(new PodVolumes.Binding(pv, c));
                }
            }
            if (!toProvision.isEmpty()) {
                int[] outcome = provisions(toProvision, node, provisions);
                unboundSatisfied = outcome[0] == 1;
                enoughSpace = outcome[1] == 1;
            }
        }
        List<String> reasons = new ArrayList<>();
        if (!boundSatisfied) {
            reasons.add(REASON_NODE_CONFLICT);
        }
        if (!unboundSatisfied) {
            reasons.add(REASON_BIND_CONFLICT);
        }
        if (!enoughSpace) {
            reasons.add(REASON_NOT_ENOUGH_SPACE);
        }
        if (!pvsFound) {
            reasons.add(REASON_PV_NOT_EXIST);
        }
        return new Found(new PodVolumes(List.copyOf(bindings), List.copyOf(provisions)), reasons);
    }

    /**
     * Whether every claim can be provisioned on the node ({@code [satisfied, enough space]} as 1 or
     * 0), adding the provisions to {@code out}; stops at the first that cannot, as upstream.
     */
    private int[] provisions(List<PersistentVolumeClaim> claims, Node node, List<PodVolumes.Provision> out) {
        List<PodVolumes.Provision> found = new ArrayList<>();
        for (PersistentVolumeClaim c : claims) {
            String className = Claims.storageClassOf(c);
            if (className.isEmpty()) {
                throw new IllegalStateException("no class for claim \""
                        + VolumeMatch.namespace(c.getMetadata().getNamespace()) + "/"
                        + c.getMetadata().getName() + "\"");
            }
            StorageClass sc = listers.storageClasses().get(className);
            if (sc == null) {
                throw new IllegalStateException("failed to find storage class \"" + className + "\"");
            }
            String provisioner = sc.getProvisioner();
            if (provisioner == null || provisioner.isEmpty() || VolumeMatch.NO_PROVISIONER.equals(provisioner)) {
                return new int[] {0, 1};
            }
            Map<String, String> labels = node.getMetadata().getLabels() == null
                    ? Map.of()
                    : node.getMetadata().getLabels();
            if (!VolumeMatch.allowedTopologiesMatch(sc.getAllowedTopologies(), labels)) {
                return new int[] {0, 1};
            }
            CSIStorageCapacity[] room = new CSIStorageCapacity[1];
            if (!enoughCapacity(provisioner, c, sc, labels, room)) {
                return new int[] {1, 0};
            }
            found.add(new PodVolumes.Provision(c, room[0]));
        }
        out.addAll(found);
        return new int[] {1, 1};
    }

    /**
     * Whether the driver has room for the claim where the node is: always, unless the provisioner
     * is a CSI driver that reports capacity; then one of its CSIStorageCapacities of the class,
     * visible from the node, must take the requested size ({@code room[0]} is it).
     */
    private boolean enoughCapacity(
            String provisioner,
            PersistentVolumeClaim c,
            StorageClass sc,
            Map<String, String> labels,
            CSIStorageCapacity[] room) {
        Quantity request = VolumeMatch.storageRequest(c);
        if (request == null) {
            return true;
        }
        CSIDriver driver = listers.csiDrivers().get(provisioner);
        if (driver == null
                || driver.getSpec() == null
                || !Boolean.TRUE.equals(driver.getSpec().getStorageCapacity())) {
            return true;
        }
        BigDecimal size = VolumeMatch.bytes(request);
        for (CSIStorageCapacity cap : listers.csiStorageCapacities().list()) {
            Quantity limit = volumeLimit(cap);
            if (sc.getMetadata().getName().equals(cap.getStorageClassName())
                    && limit != null
                    && VolumeMatch.bytes(limit).compareTo(size) >= 0
                    && cap.getNodeTopology() != null
                    && LabelSelector.of(cap.getNodeTopology()).matches(labels)) {
                room[0] = cap;
                return true;
            }
        }
        return false;
    }

    /** The largest volume a capacity takes: maximumVolumeSize when given (more precise), else capacity. */
    static Quantity volumeLimit(CSIStorageCapacity cap) {
        return cap.getMaximumVolumeSize() != null ? cap.getMaximumVolumeSize() : cap.getCapacity();
    }

    /**
     * Reserve: lays the chosen bindings (the volume prebound to its claim) and the provisions (the
     * claim with the selected node) over this instance's caches, so the next pods see them taken.
     * Returns whether every claim was fully bound already (nothing to write).
     */
    boolean assume(PodInfo pod, String nodeName, PodVolumes volumes) {
        if (allBound(pod)) {
            return true;
        }
        List<PodVolumes.Binding> assumed = new ArrayList<>();
        List<PodVolumes.Provision> provisioned = new ArrayList<>();
        try {
            for (PodVolumes.Binding b : volumes.staticBindings) {
                PersistentVolume pv = bindToClaim(b.pv(), b.pvc());
                if (pv != b.pv()) {
                    pvs.assume(pv);
                }
                assumed.add(new PodVolumes.Binding(pv, b.pvc()));
            }
            for (PodVolumes.Provision p : volumes.dynamicProvisions) {
                PersistentVolumeClaim c = new PersistentVolumeClaimBuilder(p.pvc())
                        .editMetadata()
                        .addToAnnotations(SELECTED_NODE, nodeName)
                        .endMetadata()
                        .build();
                pvcs.assume(c);
                provisioned.add(new PodVolumes.Provision(c, p.capacity()));
            }
        } catch (RuntimeException e) {
            revert(assumed, provisioned);
            throw e;
        }
        volumes.staticBindings = List.copyOf(assumed);
        volumes.dynamicProvisions = List.copyOf(provisioned);
        return false;
    }

    /** The volume prebound to the claim (claimRef, bound-by-controller), or the volume itself when it is already. */
    private static PersistentVolume bindToClaim(PersistentVolume pv, PersistentVolumeClaim c) {
        boolean byController = !VolumeMatch.boundToClaim(pv, c);
        var ref = pv.getSpec().getClaimRef();
        boolean refOk = ref != null
                && c.getMetadata().getName().equals(ref.getName())
                && VolumeMatch.namespace(c.getMetadata().getNamespace())
                        .equals(VolumeMatch.namespace(ref.getNamespace()))
                && Objects.equals(c.getMetadata().getUid(), ref.getUid());
        boolean annotated = pv.getMetadata().getAnnotations() != null
                && pv.getMetadata().getAnnotations().containsKey(BOUND_BY_CONTROLLER);
        if (refOk && (!byController || annotated)) {
            return pv;
        }
        PersistentVolumeBuilder b = new PersistentVolumeBuilder(pv);
        if (!refOk) {
            b.editSpec()
                    .withClaimRef(new ObjectReferenceBuilder()
                            .withKind("PersistentVolumeClaim")
                            .withApiVersion("v1")
                            .withNamespace(VolumeMatch.namespace(c.getMetadata().getNamespace()))
                            .withName(c.getMetadata().getName())
                            .withUid(c.getMetadata().getUid())
                            .withResourceVersion(c.getMetadata().getResourceVersion())
                            .build())
                    .endSpec();
        }
        if (byController && !annotated) {
            b.editMetadata().addToAnnotations(BOUND_BY_CONTROLLER, "yes").endMetadata();
        }
        return b.build();
    }

    /** Unreserve: the assumed versions are dropped, the reported ones seen again. */
    void revert(PodVolumes volumes) {
        revert(volumes.staticBindings, volumes.dynamicProvisions);
    }

    private void revert(List<PodVolumes.Binding> bindings, List<PodVolumes.Provision> provisions) {
        for (PodVolumes.Binding b : bindings) {
            pvs.restore(null, b.pv().getMetadata().getName());
        }
        for (PodVolumes.Provision p : provisions) {
            pvcs.restore(
                    p.pvc().getMetadata().getNamespace(), p.pvc().getMetadata().getName());
        }
    }

    /**
     * PreBind's writes: each chosen volume with its claimRef, each claim to provision with its
     * selected node. What was written is kept for the checks; what was not written is no longer
     * assumed, and the first refusal fails.
     */
    void write(ClusterClient cluster, PodVolumes volumes) {
        List<PodVolumes.Binding> written = new ArrayList<>();
        List<PodVolumes.Provision> provisioned = new ArrayList<>();
        List<PodVolumes.Binding> bindings = volumes.staticBindings;
        List<PodVolumes.Provision> provisions = volumes.dynamicProvisions;
        try {
            for (PodVolumes.Binding b : bindings) {
                written.add(new PodVolumes.Binding(cluster.update(b.pv()), b.pvc()));
            }
            for (PodVolumes.Provision p : provisions) {
                provisioned.add(new PodVolumes.Provision(cluster.update(p.pvc()), p.capacity()));
            }
        } catch (RuntimeException e) {
            revert(
                    bindings.subList(written.size(), bindings.size()),
                    provisions.subList(provisioned.size(), provisions.size()));
            throw e;
        }
        volumes.staticBindings = List.copyOf(written);
        volumes.dynamicProvisions = List.copyOf(provisioned);
    }

    /**
     * Whether the PersistentVolume controller has finished what PreBind wrote, read from the cluster's
     * objects (not the assumptions); a binding that cannot complete any more fails.
     */
    boolean done(PodInfo pod, Node node, PodVolumes volumes) {
        Node labelsOnly = VolumeMatch.withLabels(node.getMetadata().getLabels());
        String nodeName = node.getMetadata().getName();
        for (PodVolumes.Binding b : volumes.staticBindings) {
            PersistentVolume pv = pvs.api(null, b.pv().getMetadata().getName());
            PersistentVolumeClaim c = pvcs.api(
                    b.pvc().getMetadata().getNamespace(), b.pvc().getMetadata().getName());
            if (pv == null || c == null) {
                throw new IllegalStateException("failed to check binding: "
                        + (pv == null
                                ? Claims.notFound(
                                        ObjectKind.PERSISTENT_VOLUME,
                                        b.pv().getMetadata().getName())
                                : Claims.notFound(
                                        ObjectKind.PERSISTENT_VOLUME_CLAIM,
                                        b.pvc().getMetadata().getName())));
            }
            if (AssumeCache.version(b.pv()) > AssumeCache.version(pv)) {
                return false;
            }
            String affinity = VolumeMatch.nodeAffinityError(pv, labelsOnly);
            if (affinity != null) {
                throw new IllegalStateException("pv \"" + pv.getMetadata().getName()
                        + "\" node affinity doesn't match node \"" + nodeName + "\": " + affinity);
            }
            var ref = pv.getSpec().getClaimRef();
            if (ref == null || ref.getUid() == null || ref.getUid().isEmpty()) {
                throw new IllegalStateException(
                        "ClaimRef got reset for pv \"" + pv.getMetadata().getName() + "\"");
            }
            if (!fullyBound(c)) {
                return false;
            }
        }
        for (PodVolumes.Provision p : volumes.dynamicProvisions) {
            PersistentVolumeClaim c = pvcs.api(
                    p.pvc().getMetadata().getNamespace(), p.pvc().getMetadata().getName());
            if (c == null) {
                throw new IllegalStateException("failed to check provisioning pvc: "
                        + Claims.notFound(
                                ObjectKind.PERSISTENT_VOLUME_CLAIM,
                                p.pvc().getMetadata().getName()));
            }
            if (AssumeCache.version(p.pvc()) > AssumeCache.version(c)) {
                return false;
            }
            if (c.getMetadata().getAnnotations() == null) {
                throw new IllegalStateException("selectedNode annotation reset for PVC \""
                        + c.getMetadata().getName() + "\"");
            }
            if (!nodeName.equals(c.getMetadata().getAnnotations().get(SELECTED_NODE))) {
                // a provisioner that failed takes the annotation away to ask for another node
                throw new IllegalStateException(
                        "provisioning failed for PVC \"" + c.getMetadata().getName() + "\"");
            }
            String volume = c.getSpec() == null ? null : c.getSpec().getVolumeName();
            if (volume != null && !volume.isEmpty()) {
                PersistentVolume pv = pvs.api(null, volume);
                if (pv == null) {
                    // not seen yet, or deleted: the claim will be unbound then
                    return false;
                }
                String affinity = VolumeMatch.nodeAffinityError(pv, labelsOnly);
                if (affinity != null) {
                    throw new IllegalStateException("pv \"" + pv.getMetadata().getName()
                            + "\" node affinity doesn't match node \"" + nodeName + "\": " + affinity);
                }
            }
            if (!fullyBound(c)) {
                return false;
            }
        }
        return true;
    }
}
