package io.hotsched.plugins.defaults.volumebinding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.storage.CSINode;
import io.fabric8.kubernetes.api.model.storage.CSINodeBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A bound in-tree volume's zone, as the CSI driver its plugin became on the node sees it. */
class MigratedTopologyTest {

    private static CSINode migrating(String plugins) {
        return new CSINodeBuilder()
                .withNewMetadata()
                .withName("n1")
                .addToAnnotations(MigratedTopology.MIGRATED_PLUGINS, plugins)
                .endMetadata()
                .build();
    }

    /** An in-tree GCE PD volume with a zone label and no node affinity. */
    private static PersistentVolume gcePd(String zone) {
        return new PersistentVolumeBuilder()
                .withNewMetadata()
                .withName("pd")
                .withLabels(Map.of("topology.kubernetes.io/zone", zone))
                .endMetadata()
                .withNewSpec()
                .withNewGcePersistentDisk()
                .withPdName("disk")
                .endGcePersistentDisk()
                .endSpec()
                .build();
    }

    private static List<NodeSelectorRequirement> requirements(PersistentVolume pv) {
        return pv.getSpec()
                .getNodeAffinity()
                .getRequired()
                .getNodeSelectorTerms()
                .get(0)
                .getMatchExpressions();
    }

    @Test
    void aGcePdVolumeGetsTheDriversZoneFromItsZoneLabelSplitAtDoubleUnderscores() {
        PersistentVolume pv = gcePd("z1__z2");
        PersistentVolume seen = MigratedTopology.onNode(pv, migrating("kubernetes.io/gce-pd"));
        assertEquals("topology.gke.io/zone", requirements(seen).get(0).getKey());
        assertEquals(List.of("z1", "z2"), requirements(seen).get(0).getValues());
        assertNull(pv.getSpec().getNodeAffinity(), "the cached volume is not changed");
    }

    @Test
    void anEbsVolumesZoneRequirementMovesToTheDriversKeyAndOtherRequirementsStay() {
        PersistentVolume pv = new PersistentVolumeBuilder()
                .withNewMetadata()
                .withName("ebs")
                .endMetadata()
                .withNewSpec()
                .withNewAwsElasticBlockStore()
                .withVolumeID("vol-1")
                .endAwsElasticBlockStore()
                .withNewNodeAffinity()
                .withNewRequired()
                .addNewNodeSelectorTerm()
                .addNewMatchExpression()
                .withKey("failure-domain.beta.kubernetes.io/zone")
                .withOperator("In")
                .withValues("us-east-1a")
                .endMatchExpression()
                .addNewMatchExpression()
                .withKey("rack")
                .withOperator("In")
                .withValues("r1")
                .endMatchExpression()
                .endNodeSelectorTerm()
                .endRequired()
                .endNodeAffinity()
                .endSpec()
                .build();
        PersistentVolume seen = MigratedTopology.onNode(pv, migrating("kubernetes.io/gce-pd,kubernetes.io/aws-ebs"));
        assertEquals(
                List.of("topology.ebs.csi.aws.com/zone", "rack"),
                requirements(seen).stream().map(NodeSelectorRequirement::getKey).toList());
        assertEquals(
                "failure-domain.beta.kubernetes.io/zone",
                requirements(pv).get(0).getKey());
    }

    @Test
    void aVolumeWhosePluginTheNodeDoesNotMigrateIsLeftAsItIs() {
        PersistentVolume pv = gcePd("z1");
        assertSame(pv, MigratedTopology.onNode(pv, migrating("kubernetes.io/aws-ebs")));
        assertSame(pv, MigratedTopology.onNode(pv, null));
    }
}
