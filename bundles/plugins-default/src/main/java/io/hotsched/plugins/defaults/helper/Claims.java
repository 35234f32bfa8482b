package io.hotsched.plugins.defaults.helper;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Volume;
import io.hotsched.api.framework.ObjectKind;
import io.hotsched.api.framework.PodInfo;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the volume plugins share about claims: upstream's storage helpers (the class a claim asks
 * for, whose a generic ephemeral volume's claim is) and the API server's wording of an object that
 * is not there.
 */
public final class Claims {

    /** The annotation that named a claim's class before {@code spec.storageClassName}; it still wins. */
    public static final String BETA_STORAGE_CLASS = "volume.beta.kubernetes.io/storage-class";

    private Claims() {}

    /**
     * The informer lister's NotFound message, as kube-scheduler shows it: the singular resource, its
     * group when it has one ({@code persistentvolumeclaim "data" not found},
     * {@code storageclass.storage.k8s.io "fast" not found}).
     */
    public static String notFound(ObjectKind<?> kind, String name) {
        String group = kind.type().getPackageName().endsWith(".storage") ? ".storage.k8s.io" : "";
        return kind.name().toLowerCase() + group + " \"" + name + "\" not found";
    }

    /** The class a claim asks for: the beta annotation, else {@code spec.storageClassName}; "" for none. */
    public static String storageClassOf(PersistentVolumeClaim claim) {
        Map<String, String> annotations = claim.getMetadata().getAnnotations();
        if (annotations != null && annotations.containsKey(BETA_STORAGE_CLASS)) {
            return annotations.get(BETA_STORAGE_CLASS);
        }
        String name = claim.getSpec() == null ? null : claim.getSpec().getStorageClassName();
        return name == null ? "" : name;
    }

    /** The claim a volume uses: its claimName, {@code <pod>-<volume>} for a generic ephemeral one, null for neither. */
    public static String claimName(PodInfo pod, Volume v) {
        if (v.getPersistentVolumeClaim() != null) {
            return String.valueOf(v.getPersistentVolumeClaim().getClaimName());
        }
        return v.getEphemeral() != null ? pod.name() + "-" + v.getName() : null;
    }

    /** The pod's volumes; empty when it has none. */
    public static List<Volume> volumes(PodInfo pod) {
        List<Volume> v =
                pod.pod().getSpec() == null ? null : pod.pod().getSpec().getVolumes();
        return v == null ? List.of() : v;
    }

    /**
     * Why the claim of a generic ephemeral volume is not the pod's (its controller is not the pod),
     * in upstream's words; null when it is.
     */
    public static String notForPod(PodInfo pod, PersistentVolumeClaim claim) {
        String ns = claim.getMetadata().getNamespace() == null
                ? "default"
                : claim.getMetadata().getNamespace();
        boolean owned = false;
        List<OwnerReference> refs = claim.getMetadata().getOwnerReferences();
        for (OwnerReference r : refs == null ? List.<OwnerReference>of() : refs) {
            // UIDs compared as upstream's IsControlledBy does: absent is empty
            if (Boolean.TRUE.equals(r.getController())
                    && Objects.toString(pod.pod().getMetadata().getUid(), "")
                            .equals(Objects.toString(r.getUid(), ""))) {
                owned = true;
            }
        }
        if (ns.equals(pod.namespace()) && owned) {
            return null;
        }
        return "PVC " + ns + "/" + claim.getMetadata().getName() + " was not created for pod " + pod.key()
                + " (pod is not owner)";
    }

    /** Whether the claim asks for {@code mode} (ReadWriteOncePod ...). */
    public static boolean hasAccessMode(PersistentVolumeClaim claim, String mode) {
        List<String> modes = claim.getSpec() == null ? null : claim.getSpec().getAccessModes();
        return modes != null && modes.contains(mode);
    }

    /**
     * Whether the claim is one the pod mounts as a {@code persistentVolumeClaim} volume, in the
     * pod's namespace (what the hints of plugins that read only such volumes ask of a changed claim).
     */
    public static boolean mountedBy(PodInfo pod, PersistentVolumeClaim claim) {
        String ns = claim.getMetadata().getNamespace();
        if (!pod.namespace().equals(ns == null || ns.isEmpty() ? "default" : ns)) {
            return false;
        }
        for (Volume v : volumes(pod)) {
            if (v.getPersistentVolumeClaim() != null
                    && claim.getMetadata()
                            .getName()
                            .equals(v.getPersistentVolumeClaim().getClaimName())) {
                return true;
            }
        }
        return false;
    }

    /** Whether the pod uses the claim, as a claim volume or as its generic ephemeral volume's claim. */
    public static boolean usedBy(PodInfo pod, PersistentVolumeClaim claim) {
        String ns = claim.getMetadata().getNamespace();
        return pod.namespace().equals(ns == null || ns.isEmpty() ? "default" : ns)
                && pod.claimNames().contains(claim.getMetadata().getName());
    }
}
