package io.hotsched.embedded.standins;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import java.util.List;
import java.util.Map;

/**
 * Whether an unbound volume can serve a claim, as upstream's PV controller matches them: same
 * class, same volume mode (Filesystem by default), every access mode the claim asks for, at least
 * its requested capacity, labels the claim's selector admits, and a node affinity the selected node
 * (when there is one) satisfies.
 */
final class VolumeMatch {

    private VolumeMatch() {}

    static boolean fits(PersistentVolumeClaim c, PersistentVolume v, String className, Node node) {
        String vClass =
                v.getSpec().getStorageClassName() == null ? "" : v.getSpec().getStorageClassName();
        if (!vClass.equals(className)) {
            return false;
        }
        if (!mode(c.getSpec().getVolumeMode()).equals(mode(v.getSpec().getVolumeMode()))) {
            return false;
        }
        List<String> modes =
                v.getSpec().getAccessModes() == null ? List.of() : v.getSpec().getAccessModes();
        if (c.getSpec().getAccessModes() != null
                && !modes.containsAll(c.getSpec().getAccessModes())) {
            return false;
        }
        if (v.getSpec().getCapacity() == null || v.getSpec().getCapacity().get("storage") == null) {
            return false;
        }
        if (v.getSpec()
                        .getCapacity()
                        .get("storage")
                        .getNumericalAmount()
                        .compareTo(VolumeBinderStandIn.request(c).getNumericalAmount())
                < 0) {
            return false;
        }
        if (!selects(c.getSpec().getSelector(), v.getMetadata().getLabels())) {
            return false;
        }
        return node == null || nodeFits(v, node);
    }

    private static String mode(String m) {
        return m == null ? "Filesystem" : m;
    }

    private static boolean nodeFits(PersistentVolume v, Node node) {
        if (v.getSpec().getNodeAffinity() == null
                || v.getSpec().getNodeAffinity().getRequired() == null) {
            return true;
        }
        List<NodeSelectorTerm> terms =
                v.getSpec().getNodeAffinity().getRequired().getNodeSelectorTerms();
        // the same matching as a pod's required node affinity
        return NodeFit.shouldRun(
                new PodSpecBuilder()
                        .withNewAffinity()
                        .withNewNodeAffinity()
                        .withNewRequiredDuringSchedulingIgnoredDuringExecution()
                        .withNodeSelectorTerms(terms)
                        .endRequiredDuringSchedulingIgnoredDuringExecution()
                        .endNodeAffinity()
                        .endAffinity()
                        .withTolerations(new io.fabric8.kubernetes.api.model.TolerationBuilder()
                                .withOperator("Exists")
                                .build())
                        .build(),
                node);
    }

    static boolean selects(LabelSelector s, Map<String, String> labels) {
        if (s == null) {
            return true;
        }
        Map<String, String> l = labels == null ? Map.of() : labels;
        if (s.getMatchLabels() != null) {
            for (Map.Entry<String, String> e : s.getMatchLabels().entrySet()) {
                if (!e.getValue().equals(l.get(e.getKey()))) {
                    return false;
                }
            }
        }
        if (s.getMatchExpressions() != null) {
            for (LabelSelectorRequirement r : s.getMatchExpressions()) {
                if (!SetOperators.holds(r.getOperator(), l.get(r.getKey()), r.getValues())) {
                    return false;
                }
            }
        }
        return true;
    }
}
