package io.hotsched.embedded.standins;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimStatusBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeStatusBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Plays the PersistentVolume controller's binder, with upstream's annotations and phases. A claim
 * without a volume, of a class whose mode is Immediate (or of no class), or WaitForFirstConsumer
 * once {@value #SELECTED_NODE} names a node, is bound to the smallest Available volume that fits
 * (class, access modes, volume mode, capacity, selector, and the node's labels against the
 * volume's node affinity); a volume already naming the claim in {@code claimRef} is taken first.
 * Binding writes the volume's {@code claimRef} (with {@value #BOUND_BY_CONTROLLER} when this
 * controller chose it) and phase Bound, then the claim's {@code volumeName},
 * {@value #BIND_COMPLETED}, {@value #BOUND_BY_CONTROLLER}, capacity, access modes and phase Bound.
 * With no volume and a class with a provisioner, the claim gets {@value #PROVISIONER} (and its beta
 * twin) for {@link ProvisionerStandIn}. A volume no claim names is Available; one whose claim is
 * gone is Released, or deleted when its reclaim policy is Delete.
 */
final class VolumeBinderStandIn implements AutoCloseable {

    static final String BIND_COMPLETED = "pv.kubernetes.io/bind-completed";
    static final String BOUND_BY_CONTROLLER = "pv.kubernetes.io/bound-by-controller";
    static final String SELECTED_NODE = "volume.kubernetes.io/selected-node";
    static final String PROVISIONER = "volume.kubernetes.io/storage-provisioner";
    static final String BETA_PROVISIONER = "volume.beta.kubernetes.io/storage-provisioner";
    static final String DEFAULT_CLASS = "storageclass.kubernetes.io/is-default-class";

    private final KubernetesClient client;
    private final WorkQueue queue = new WorkQueue("persistent-volume-controller", this::sync);
    private SharedIndexInformer<PersistentVolumeClaim> claims;
    private SharedIndexInformer<PersistentVolume> volumes;
    private SharedIndexInformer<StorageClass> classes;
    /** Volumes this controller bound that its cache may not show bound yet. */
    private final Set<String> taken = new HashSet<>();

    VolumeBinderStandIn(KubernetesClient client) {
        this.client = client;
    }

    void start() {
        classes = client.storage().v1().storageClasses().inform();
        volumes = client.persistentVolumes().runnableInformer(0);
        volumes.addEventHandler(handler(v -> "pv:" + v.getMetadata().getName(), true));
        claims = client.persistentVolumeClaims().inAnyNamespace().runnableInformer(0);
        claims.addEventHandler(handler(c -> "pvc:" + Ownership.key(c), false));
        volumes.run();
        claims.run();
    }

    private <T> ResourceEventHandler<T> handler(java.util.function.Function<T, String> key, boolean volume) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T o) {
                queue.add(key.apply(o));
                if (volume) {
                    pendingClaims();
                }
            }

            @Override
            public void onUpdate(T old, T o) {
                queue.add(key.apply(o));
                if (volume) {
                    pendingClaims();
                }
            }

            @Override
            public void onDelete(T o, boolean unknownFinalState) {
                if (!volume) {
                    // the volume it was bound to is Released now
                    volumes.getStore()
                            .list()
                            .forEach(v -> queue.add("pv:" + v.getMetadata().getName()));
                }
            }
        };
    }

    /** A volume changed: claims waiting for one may find it now. */
    private void pendingClaims() {
        if (claims == null) {
            return;
        }
        for (PersistentVolumeClaim c : claims.getStore().list()) {
            if (volumeName(c) == null) {
                queue.add("pvc:" + Ownership.key(c));
            }
        }
    }

    private void sync(String key) {
        if (key.startsWith("pv:")) {
            PersistentVolume v = volumes.getStore().getByKey(key.substring(3));
            if (v != null) {
                syncVolume(v);
            }
            return;
        }
        PersistentVolumeClaim c = claims.getStore().getByKey(key.substring(4));
        if (c != null) {
            syncClaim(c);
        }
    }

    private void syncVolume(PersistentVolume v) {
        var ref = v.getSpec().getClaimRef();
        if (ref == null) {
            taken.remove(v.getMetadata().getName());
            volumePhase(v, "Available");
            return;
        }
        taken.remove(v.getMetadata().getName());
        PersistentVolumeClaim c = claims.getStore().getByKey(ref.getNamespace() + "/" + ref.getName());
        boolean claimGone = ref.getUid() != null
                && (c == null || !ref.getUid().equals(c.getMetadata().getUid()));
        if (!claimGone) {
            return;
        }
        if ("Delete".equals(v.getSpec().getPersistentVolumeReclaimPolicy())) {
            client.resource(v).delete();
        } else {
            volumePhase(v, "Released");
        }
    }

    private void syncClaim(PersistentVolumeClaim c) {
        if (volumeName(c) != null) {
            completeBinding(c, volumes.getStore().getByKey(volumeName(c)), false);
            return;
        }
        StorageClass sc = storageClass(c);
        String node = annotation(c, SELECTED_NODE);
        if (sc != null && "WaitForFirstConsumer".equals(sc.getVolumeBindingMode()) && node == null) {
            // the scheduler chose a volume for it: the volume names the claim in claimRef
            PersistentVolume prebound = prebound(c);
            if (prebound != null) {
                bind(c, prebound);
            } else {
                claimPhase(c, "Pending");
            }
            return;
        }
        Node selected = node == null ? null : client.nodes().withName(node).get();
        PersistentVolume match = findBest(c, className(c, sc), selected);
        if (match != null) {
            bind(c, match);
            return;
        }
        if (sc != null
                && sc.getProvisioner() != null
                && !sc.getProvisioner().isEmpty()
                && annotation(c, PROVISIONER) == null) {
            client.persistentVolumeClaims()
                    .inNamespace(c.getMetadata().getNamespace())
                    .withName(c.getMetadata().getName())
                    .edit(x -> {
                        annotations(x.getMetadata()).put(PROVISIONER, sc.getProvisioner());
                        annotations(x.getMetadata()).put(BETA_PROVISIONER, sc.getProvisioner());
                        return x;
                    });
        }
        claimPhase(c, "Pending");
    }

    /** A volume whose claimRef names the claim (and its UID, when it has one). */
    private PersistentVolume prebound(PersistentVolumeClaim c) {
        for (PersistentVolume v : volumes.getStore().list()) {
            var ref = v.getSpec().getClaimRef();
            if (ref != null
                    && c.getMetadata().getName().equals(ref.getName())
                    && c.getMetadata().getNamespace().equals(ref.getNamespace())
                    && (ref.getUid() == null
                            || ref.getUid().equals(c.getMetadata().getUid()))) {
                return v;
            }
        }
        return null;
    }

    private PersistentVolume findBest(PersistentVolumeClaim c, String className, Node node) {
        PersistentVolume prebound = prebound(c);
        if (prebound != null) {
            return prebound;
        }
        List<PersistentVolume> all = volumes.getStore().list();
        return all.stream()
                .filter(v -> v.getSpec().getClaimRef() == null
                        && !taken.contains(v.getMetadata().getName()))
                .filter(v -> VolumeMatch.fits(c, v, className, node))
                .min(Comparator.comparing(
                        v -> v.getSpec().getCapacity().get("storage").getNumericalAmount()))
                .orElse(null);
    }

    private void bind(PersistentVolumeClaim c, PersistentVolume v) {
        boolean chosen = v.getSpec().getClaimRef() == null;
        taken.add(v.getMetadata().getName());
        client.persistentVolumes().withName(v.getMetadata().getName()).edit(x -> {
            x.getSpec().setClaimRef(claimRef(c));
            if (chosen) {
                annotations(x.getMetadata()).put(BOUND_BY_CONTROLLER, "yes");
            }
            return x;
        });
        PersistentVolume bound =
                client.persistentVolumes().withName(v.getMetadata().getName()).get();
        volumePhase(bound, "Bound");
        completeBinding(c, bound, true);
    }

    /** The claim's half of a binding: volumeName, annotations, status. */
    private void completeBinding(PersistentVolumeClaim c, PersistentVolume v, boolean chosen) {
        if (v == null) {
            claimPhase(c, "Lost");
            return;
        }
        if (!"yes".equals(annotation(c, BIND_COMPLETED)) || volumeName(c) == null) {
            client.persistentVolumeClaims()
                    .inNamespace(c.getMetadata().getNamespace())
                    .withName(c.getMetadata().getName())
                    .edit(x -> {
                        boolean byUs = x.getSpec().getVolumeName() == null
                                || x.getSpec().getVolumeName().isEmpty();
                        x.getSpec().setVolumeName(v.getMetadata().getName());
                        annotations(x.getMetadata()).put(BIND_COMPLETED, "yes");
                        if (byUs || chosen) {
                            annotations(x.getMetadata()).put(BOUND_BY_CONTROLLER, "yes");
                        }
                        return x;
                    });
        }
        var status = new PersistentVolumeClaimStatusBuilder()
                .withPhase("Bound")
                .withAccessModes(v.getSpec().getAccessModes())
                .withCapacity(v.getSpec().getCapacity())
                .build();
        if (!Objects.equals(status, c.getStatus())) {
            PersistentVolumeClaim next = client.persistentVolumeClaims()
                    .inNamespace(c.getMetadata().getNamespace())
                    .withName(c.getMetadata().getName())
                    .get();
            next.setStatus(status);
            OwnerController.putStatus(client, next);
        }
    }

    private void volumePhase(PersistentVolume v, String phase) {
        if (v.getStatus() != null && phase.equals(v.getStatus().getPhase())) {
            return;
        }
        PersistentVolume next = OwnerController.copy(v);
        next.setStatus(new PersistentVolumeStatusBuilder().withPhase(phase).build());
        OwnerController.putStatus(client, next);
    }

    private void claimPhase(PersistentVolumeClaim c, String phase) {
        if (c.getStatus() != null && phase.equals(c.getStatus().getPhase())) {
            return;
        }
        PersistentVolumeClaim next = OwnerController.copy(c);
        next.setStatus(new PersistentVolumeClaimStatusBuilder().withPhase(phase).build());
        OwnerController.putStatus(client, next);
    }

    /** The claim's class: named, or the default class when it names none (null field, not ""). */
    private StorageClass storageClass(PersistentVolumeClaim c) {
        String name = c.getSpec().getStorageClassName();
        if (name != null) {
            return name.isEmpty() ? null : classes.getStore().getByKey(name);
        }
        return classes.getStore().list().stream()
                .filter(s -> "true".equals(annotation(s, DEFAULT_CLASS)))
                .findFirst()
                .orElse(null);
    }

    private static String className(PersistentVolumeClaim c, StorageClass sc) {
        return sc != null
                ? sc.getMetadata().getName()
                : c.getSpec().getStorageClassName() == null ? "" : c.getSpec().getStorageClassName();
    }

    /** The reference to {@code c} a volume bound to it holds. */
    static io.fabric8.kubernetes.api.model.ObjectReference claimRef(PersistentVolumeClaim c) {
        return new ObjectReferenceBuilder()
                .withKind("PersistentVolumeClaim")
                .withApiVersion("v1")
                .withNamespace(c.getMetadata().getNamespace())
                .withName(c.getMetadata().getName())
                .withUid(c.getMetadata().getUid())
                .withResourceVersion(c.getMetadata().getResourceVersion())
                .build();
    }

    static String volumeName(PersistentVolumeClaim c) {
        String v = c.getSpec().getVolumeName();
        return v == null || v.isEmpty() ? null : v;
    }

    static String annotation(io.fabric8.kubernetes.api.model.HasMetadata o, String key) {
        return o.getMetadata().getAnnotations() == null
                ? null
                : o.getMetadata().getAnnotations().get(key);
    }

    private static Map<String, String> annotations(io.fabric8.kubernetes.api.model.ObjectMeta m) {
        if (m.getAnnotations() == null) {
            m.setAnnotations(new HashMap<>());
        }
        return m.getAnnotations();
    }

    static Quantity request(PersistentVolumeClaim c) {
        return c.getSpec().getResources() == null || c.getSpec().getResources().getRequests() == null
                ? new Quantity("0")
                : c.getSpec().getResources().getRequests().getOrDefault("storage", new Quantity("0"));
    }

    @Override
    public void close() {
        queue.close();
        for (SharedIndexInformer<?> i : new SharedIndexInformer<?>[] {claims, volumes, classes}) {
            if (i != null) {
                i.stop();
            }
        }
    }
}
