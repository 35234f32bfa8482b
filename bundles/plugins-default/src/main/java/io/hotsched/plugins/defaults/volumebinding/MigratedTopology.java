package io.hotsched.plugins.defaults.volumebinding;

import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeSpec;
import io.fabric8.kubernetes.api.model.storage.CSINode;
import io.hotsched.plugins.defaults.helper.NodeLabels;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The zone a bound in-tree volume is reachable from once its plugin runs as a CSI driver on the
 * node (csi-translation-lib's facts, as upstream's binder applies them before checking a bound
 * volume's node affinity): the zone requirement moves to the driver's topology key, taken from the
 * volume's zone label when its affinity names none. The node labels CSI drivers set carry that
 * key, not the Kubernetes zone labels.
 */
final class MigratedTopology {

    static final String MIGRATED_PLUGINS = "storage.alpha.kubernetes.io/migrated-plugins";

    /** In-tree plugin to the topology key of the CSI driver it became (the plugins with zonal volumes). */
    private static final Map<String, String> TOPOLOGY_KEY = Map.of(
            "kubernetes.io/gce-pd", "topology.gke.io/zone",
            "kubernetes.io/aws-ebs", "topology.ebs.csi.aws.com/zone",
            "kubernetes.io/azure-disk", "topology.disk.csi.azure.com/zone",
            "kubernetes.io/cinder", "topology.cinder.csi.openstack.org/zone");

    private MigratedTopology() {}

    /** The volume as the node's CSI driver sees it; the volume itself when its plugin is not migrated there. */
    static PersistentVolume onNode(PersistentVolume pv, CSINode csiNode) {
        String plugin = pluginOf(pv.getSpec());
        if (plugin == null || !migratedOn(plugin, csiNode)) {
            return pv;
        }
        String csiKey = TOPOLOGY_KEY.get(plugin);
        Map<String, String> labels = pv.getMetadata().getLabels() == null
                ? Map.of()
                : pv.getMetadata().getLabels();
        List<NodeSelectorTerm> terms = terms(pv);
        String zoneKey = labels.containsKey(NodeLabels.ZONE) || uses(terms, NodeLabels.ZONE)
                ? NodeLabels.ZONE
                : NodeLabels.BETA_ZONE;
        boolean moved = false;
        for (NodeSelectorTerm t : terms) {
            for (NodeSelectorRequirement r : expressions(t)) {
                if (zoneKey.equals(r.getKey())) {
                    r.setKey(csiKey);
                    moved = true;
                }
            }
        }
        if (!moved && !uses(terms, csiKey) && labels.containsKey(zoneKey)) {
            // regional volumes list their zones joined by "__"
            NodeSelectorRequirement zone = new NodeSelectorRequirementBuilder()
                    .withKey(csiKey)
                    .withOperator("In")
                    .withValues(Arrays.asList(labels.get(zoneKey).split("__")))
                    .build();
            if (terms.isEmpty()) {
                terms.add(new NodeSelectorTerm());
            }
            for (NodeSelectorTerm t : terms) {
                List<NodeSelectorRequirement> e = new ArrayList<>(expressions(t));
                e.add(zone);
                t.setMatchExpressions(e);
            }
        }
        return new PersistentVolumeBuilder(pv)
                .editSpec()
                .withNewNodeAffinity()
                .withNewRequired()
                .withNodeSelectorTerms(terms)
                .endRequired()
                .endNodeAffinity()
                .endSpec()
                .build();
    }

    private static String pluginOf(PersistentVolumeSpec spec) {
        if (spec == null) {
            return null;
        }
        if (spec.getGcePersistentDisk() != null) {
            return "kubernetes.io/gce-pd";
        }
        if (spec.getAwsElasticBlockStore() != null) {
            return "kubernetes.io/aws-ebs";
        }
        if (spec.getAzureDisk() != null) {
            return "kubernetes.io/azure-disk";
        }
        return spec.getCinder() != null ? "kubernetes.io/cinder" : null;
    }

    private static boolean migratedOn(String plugin, CSINode csiNode) {
        Map<String, String> annotations =
                csiNode == null ? null : csiNode.getMetadata().getAnnotations();
        String migrated = annotations == null ? null : annotations.get(MIGRATED_PLUGINS);
        return migrated != null && Arrays.asList(migrated.split(",")).contains(plugin);
    }

    /** A deep copy of the volume's required node selector terms, to rewrite. */
    private static List<NodeSelectorTerm> terms(PersistentVolume pv) {
        PersistentVolume copy = new PersistentVolumeBuilder(pv).build();
        var affinity = copy.getSpec().getNodeAffinity();
        List<NodeSelectorTerm> terms = affinity == null || affinity.getRequired() == null
                ? null
                : affinity.getRequired().getNodeSelectorTerms();
        return terms == null ? new ArrayList<>() : new ArrayList<>(terms);
    }

    private static boolean uses(List<NodeSelectorTerm> terms, String key) {
        return terms.stream().flatMap(t -> expressions(t).stream()).anyMatch(r -> key.equals(r.getKey()));
    }

    private static List<NodeSelectorRequirement> expressions(NodeSelectorTerm t) {
        return t.getMatchExpressions() == null ? List.of() : t.getMatchExpressions();
    }
}
