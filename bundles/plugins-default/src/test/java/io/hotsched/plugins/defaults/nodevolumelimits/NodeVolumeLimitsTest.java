package io.hotsched.plugins.defaults.nodevolumelimits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.storage.CSINode;
import io.fabric8.kubernetes.api.model.storage.CSINodeBuilder;
import io.fabric8.kubernetes.api.model.storage.VolumeAttachmentBuilder;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.QueueingHint;
import io.hotsched.core.runtime.Snapshot;
import io.hotsched.testing.FakeHandle;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What upstream's table does not reach: an attachment of a volume a pod on the node already uses,
 * an in-tree EBS volume named by its aws:// URL, and the hint of a CSINode whose limits change.
 */
class NodeVolumeLimitsTest {

    private static final String EBS = "ebs.csi.aws.com";
    private final FakeHandle handle = new FakeHandle();
    private final NodeInfo n1 = new NodeInfo(Nodes.node("n1").build());

    private static CSINode csiNode(Integer... limits) {
        CSINodeBuilder b = new CSINodeBuilder()
                .withNewMetadata()
                .withName("n1")
                .endMetadata()
                .withNewSpec()
                .endSpec();
        for (int i = 0; i < limits.length; i++) {
            b.editSpec()
                    .addNewDriver()
                    .withName(i == 0 ? EBS : "driver-" + i)
                    .withNodeID("n1")
                    .withNewAllocatable()
                    .withCount(limits[i])
                    .endAllocatable()
                    .endDriver()
                    .endSpec();
        }
        return b.build();
    }

    private void claimOf(String claim, PersistentVolume pv) {
        handle.addObject(pv);
        handle.addObject(new PersistentVolumeClaimBuilder()
                .withNewMetadata()
                .withName(claim)
                .withNamespace("default")
                .endMetadata()
                .withNewSpec()
                .withVolumeName(pv.getMetadata().getName())
                .endSpec()
                .build());
    }

    private static PersistentVolume csiVolume(String name, String handle) {
        return new PersistentVolumeBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withNewCsi()
                .withDriver(EBS)
                .withVolumeHandle(handle)
                .endCsi()
                .endSpec()
                .build();
    }

    private String filter(PodInfo pod) {
        NodeVolumeLimits p = new NodeVolumeLimits(handle);
        CycleState state = new CycleState();
        assertTrue(p.preFilter(state, pod, new Snapshot(List.of(n1))).status().isSuccess());
        return p.filter(state, pod, n1).toString();
    }

    @Test
    void anAttachmentOfAVolumeAPodOnTheNodeUsesCountsOnce() {
        handle.addObject(csiNode(2));
        claimOf("a", csiVolume("pv-a", "vol-a"));
        claimOf("b", csiVolume("pv-b", "vol-b"));
        n1.addPod(Pods.pod("user").node("n1").claim("a").info());
        handle.addObject(new VolumeAttachmentBuilder()
                .withNewMetadata()
                .withName("va-a")
                .endMetadata()
                .withNewSpec()
                .withAttacher(EBS)
                .withNodeName("n1")
                .withNewSource()
                .withPersistentVolumeName("pv-a")
                .endSource()
                .endSpec()
                .build());
        assertEquals("SUCCESS", filter(Pods.pod("p").claim("b").info()), "vol-a once, vol-b new: 2 of 2");
    }

    @Test
    void anInTreeEbsVolumeNamedByItsUrlIsTheSameVolumeAsTheCsiOne() {
        handle.addObject(csiNode(1));
        claimOf("csi", csiVolume("pv-csi", "vol-0123"));
        claimOf(
                "in-tree",
                new PersistentVolumeBuilder()
                        .withNewMetadata()
                        .withName("pv-in-tree")
                        .endMetadata()
                        .withNewSpec()
                        .withNewAwsElasticBlockStore()
                        .withVolumeID("aws://us-east-1a/vol-0123")
                        .endAwsElasticBlockStore()
                        .endSpec()
                        .build());
        n1.addPod(Pods.pod("user").node("n1").claim("csi").info());
        assertEquals("SUCCESS", filter(Pods.pod("p").claim("in-tree").info()));
        claimOf("other", csiVolume("pv-other", "vol-9999"));
        assertEquals(
                "UNSCHEDULABLE: " + NodeVolumeLimits.ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED,
                filter(Pods.pod("q").claim("other").info()));
    }

    @Test
    void aCsiNodeUpdateRequeuesWhenALimitRisesOrADriverArrives() {
        PodInfo pod = Pods.pod("p").claim("a").info();
        assertEquals(QueueingHint.QUEUE, NodeVolumeLimits.afterCsiNodeUpdated(pod, csiNode(2), csiNode(3)));
        assertEquals(QueueingHint.SKIP, NodeVolumeLimits.afterCsiNodeUpdated(pod, csiNode(3), csiNode(2)));
        assertEquals(QueueingHint.SKIP, NodeVolumeLimits.afterCsiNodeUpdated(pod, csiNode(2), csiNode(2)));
        assertEquals(QueueingHint.QUEUE, NodeVolumeLimits.afterCsiNodeUpdated(pod, csiNode(2), csiNode(2, 5)));
    }
}
