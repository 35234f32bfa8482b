package io.hotsched.plugins.defaults.volumebinding;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.TopologySelectorLabelRequirement;
import io.fabric8.kubernetes.api.model.TopologySelectorTerm;
import io.hotsched.api.framework.LabelSelector;
import io.hotsched.plugins.defaults.helper.Claims;
import io.hotsched.plugins.defaults.helper.NodeSelectorTerm;
import io.hotsched.plugins.defaults.helper.SelectorValidation;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * How a claim and a PersistentVolume fit each other and a node (upstream's component-helpers
 * storage/volume): the volume's node affinity, the smallest available volume that satisfies a
 * claim, a class's allowed topologies.
 */
final class VolumeMatch {

    static final String NO_PROVISIONER = "kubernetes.io/no-provisioner";

    private VolumeMatch() {}

    /** A node that carries only {@code labels}: what a volume's node affinity is checked against, as upstream does. */
    static Node withLabels(Map<String, String> labels) {
        return new NodeBuilder()
                .withNewMetadata()
                .withLabels(labels)
                .endMetadata()
                .build();
    }

    /** Why the volume's node affinity excludes the node; null when it does not. */
    static String nodeAffinityError(PersistentVolume pv, Node labelsOnly) {
        var affinity = pv.getSpec() == null ? null : pv.getSpec().getNodeAffinity();
        if (affinity == null || affinity.getRequired() == null) {
            return null;
        }
        var terms = affinity.getRequired().getNodeSelectorTerms();
        for (var t : terms == null ? List.<io.fabric8.kubernetes.api.model.NodeSelectorTerm>of() : terms) {
            if (NodeSelectorTerm.of(t).matches(labelsOnly)) {
                return null;
            }
        }
        return "no matching NodeSelectorTerms";
    }

    /** Whether the volume's claimRef names this claim (and its UID, when it has one). */
    static boolean boundToClaim(PersistentVolume pv, PersistentVolumeClaim claim) {
        ObjectReference ref = pv.getSpec() == null ? null : pv.getSpec().getClaimRef();
        if (ref == null || !Objects.equals(ref.getName(), claim.getMetadata().getName())) {
            return false;
        }
        if (!Objects.equals(
                namespace(ref.getNamespace()), namespace(claim.getMetadata().getNamespace()))) {
            return false;
        }
        return blank(ref.getUid()) || ref.getUid().equals(claim.getMetadata().getUid());
    }

    /**
     * The volume for the claim on the node: one prebound to it (null when its node affinity
     * excludes the node), else the smallest Available volume of its class, selector, volume mode,
     * access modes and attributes class whose node affinity allows the node and that is not in
     * {@code excluded}.
     */
    static PersistentVolume find(
            PersistentVolumeClaim claim, List<PersistentVolume> volumes, Node labelsOnly, Set<String> excluded) {
        BigDecimal requested = bytes(storageRequest(claim));
        String className = Claims.storageClassOf(claim);
        LabelSelector selector = null;
        if (claim.getSpec() != null && claim.getSpec().getSelector() != null) {
            String err = SelectorValidation.error(claim.getSpec().getSelector());
            if (err != null) {
                throw new IllegalArgumentException("error creating internal label selector for claim: "
                        + namespace(claim.getMetadata().getNamespace()) + "/"
                        + claim.getMetadata().getName() + ": "
                        + err);
            }
            selector = LabelSelector.of(claim.getSpec().getSelector());
        }
        PersistentVolume smallest = null;
        BigDecimal smallestSize = null;
        for (PersistentVolume pv : volumes) {
            if (excluded.contains(pv.getMetadata().getName())) {
                continue;
            }
            if (pv.getSpec().getClaimRef() != null && !boundToClaim(pv, claim)) {
                continue;
            }
            BigDecimal size = bytes(capacity(pv));
            if (size.compareTo(requested) < 0
                    || volumeModeMismatch(claim, pv)
                    || pv.getMetadata().getDeletionTimestamp() != null) {
                continue;
            }
            boolean affinityOk = nodeAffinityError(pv, labelsOnly) == null;
            if (boundToClaim(pv, claim)) {
                return affinityOk ? pv : null;
            }
            if (!"Available"
                    .equals(pv.getStatus() == null ? null : pv.getStatus().getPhase())) {
                continue;
            }
            if (selector != null && !selector.matches(labels(pv))) {
                continue;
            }
            if (!className.equals(classOf(pv))
                    || !Objects.equals(
                            blankToNull(attributesClass(claim)),
                            blankToNull(pv.getSpec().getVolumeAttributesClassName()))
                    || !affinityOk
                    || !accessModesFit(claim, pv)) {
                continue;
            }
            if (smallest == null || smallestSize.compareTo(size) > 0) {
                smallest = pv;
                smallestSize = size;
            }
        }
        return smallest;
    }

    /** Whether the node has the labels of one of the class's allowed topologies (any, when it has none). */
    static boolean allowedTopologiesMatch(List<TopologySelectorTerm> terms, Map<String, String> nodeLabels) {
        if (terms == null || terms.isEmpty()) {
            return true;
        }
        for (TopologySelectorTerm t : terms) {
            boolean all = true;
            List<TopologySelectorLabelRequirement> reqs =
                    t.getMatchLabelExpressions() == null ? List.of() : t.getMatchLabelExpressions();
            for (TopologySelectorLabelRequirement r : reqs) {
                String v = nodeLabels.get(r.getKey());
                if (v == null || r.getValues() == null || !r.getValues().contains(v)) {
                    all = false;
                    break;
                }
            }
            if (all) {
                return true;
            }
        }
        return false;
    }

    /** The class a volume belongs to: the beta annotation, else {@code spec.storageClassName}; "" for none. */
    static String classOf(PersistentVolume pv) {
        Map<String, String> a = pv.getMetadata().getAnnotations();
        if (a != null && a.containsKey(Claims.BETA_STORAGE_CLASS)) {
            return a.get(Claims.BETA_STORAGE_CLASS);
        }
        String c = pv.getSpec() == null ? null : pv.getSpec().getStorageClassName();
        return c == null ? "" : c;
    }

    static Quantity storageRequest(PersistentVolumeClaim claim) {
        var r = claim.getSpec() == null ? null : claim.getSpec().getResources();
        return r == null || r.getRequests() == null ? null : r.getRequests().get("storage");
    }

    static Quantity capacity(PersistentVolume pv) {
        return pv.getSpec().getCapacity() == null
                ? null
                : pv.getSpec().getCapacity().get("storage");
    }

    /** A quantity in bytes; 0 for none. */
    static BigDecimal bytes(Quantity q) {
        return q == null ? BigDecimal.ZERO : Quantity.getAmountInBytes(q);
    }

    private static boolean volumeModeMismatch(PersistentVolumeClaim claim, PersistentVolume pv) {
        String want = claim.getSpec() == null || claim.getSpec().getVolumeMode() == null
                ? "Filesystem"
                : claim.getSpec().getVolumeMode();
        String have = pv.getSpec().getVolumeMode() == null
                ? "Filesystem"
                : pv.getSpec().getVolumeMode();
        return !want.equals(have);
    }

    private static boolean accessModesFit(PersistentVolumeClaim claim, PersistentVolume pv) {
        List<String> want = claim.getSpec() == null ? null : claim.getSpec().getAccessModes();
        List<String> have =
                pv.getSpec().getAccessModes() == null ? List.of() : pv.getSpec().getAccessModes();
        return want == null || have.containsAll(want);
    }

    private static String attributesClass(PersistentVolumeClaim claim) {
        return claim.getSpec() == null ? null : claim.getSpec().getVolumeAttributesClassName();
    }

    private static Map<String, String> labels(PersistentVolume pv) {
        return pv.getMetadata().getLabels() == null
                ? Map.of()
                : pv.getMetadata().getLabels();
    }

    static String namespace(String ns) {
        return ns == null || ns.isEmpty() ? "default" : ns;
    }

    private static boolean blank(String s) {
        return s == null || s.isEmpty();
    }

    private static String blankToNull(String s) {
        return blank(s) ? null : s;
    }
}
