package io.hotsched.kube;

import static io.hotsched.kube.ApiServerFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.storage.CSINodeBuilder;
import io.fabric8.kubernetes.api.model.storage.StorageClassBuilder;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.embedded.standins.StandIn;
import io.hotsched.plugins.defaults.defaultbinder.DefaultBinder;
import io.hotsched.plugins.defaults.defaultbinder.DefaultBinderFactory;
import io.hotsched.plugins.defaults.noderesourcesfit.NodeResourcesFit;
import io.hotsched.plugins.defaults.noderesourcesfit.NodeResourcesFitFactory;
import io.hotsched.plugins.defaults.nodevolumelimits.NodeVolumeLimits;
import io.hotsched.plugins.defaults.nodevolumelimits.NodeVolumeLimitsFactory;
import io.hotsched.plugins.defaults.queuesort.PrioritySort;
import io.hotsched.plugins.defaults.queuesort.PrioritySortFactory;
import io.hotsched.plugins.defaults.volumebinding.VolumeBinding;
import io.hotsched.plugins.defaults.volumebinding.VolumeBindingFactory;
import io.hotsched.plugins.defaults.volumerestrictions.VolumeRestrictions;
import io.hotsched.plugins.defaults.volumerestrictions.VolumeRestrictionsFactory;
import io.hotsched.plugins.defaults.volumezone.VolumeZone;
import io.hotsched.plugins.defaults.volumezone.VolumeZoneFactory;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import io.hotsched.testing.Volumes;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The volume plugins over HTTP against the embedded API server and its PersistentVolume controller
 * stand-in: a pod whose claim is missing waits, told which claim; a pod over a node's CSI attach
 * limit goes to another node; a pod whose WaitForFirstConsumer claim can only bind to a local
 * volume goes to that volume's node, and the claim ends up bound to it.
 */
class VolumePathTest {

    private static final String EBS = "ebs.csi.aws.com";

    @AutoClose
    private ApiServerFixture api;

    @BeforeEach
    void start() throws Exception {
        api = new ApiServerFixture(
                Nodes.node("n1").cpu("4").label("kubernetes.io/hostname", "n1").build(),
                Nodes.node("n2").cpu("4").label("kubernetes.io/hostname", "n2").build());
        api.server.startStandIns(EnumSet.of(StandIn.PERSISTENT_VOLUME));
        Map<String, PluginFactory> plugins = new LinkedHashMap<>();
        plugins.put(PrioritySort.NAME, new PrioritySortFactory());
        plugins.put(NodeResourcesFit.NAME, new NodeResourcesFitFactory());
        plugins.put(VolumeRestrictions.NAME, new VolumeRestrictionsFactory());
        plugins.put(NodeVolumeLimits.NAME, new NodeVolumeLimitsFactory());
        plugins.put(VolumeBinding.NAME, new VolumeBindingFactory());
        plugins.put(VolumeZone.NAME, new VolumeZoneFactory());
        plugins.put(DefaultBinder.NAME, new DefaultBinderFactory());
        api.connect(plugins);
    }

    private String scheduledMessage(String pod) {
        return Pods.scheduledMessage(api.get(pod));
    }

    private PersistentVolumeClaim claim(String name) {
        return api.client
                .persistentVolumeClaims()
                .inNamespace("default")
                .withName(name)
                .get();
    }

    @Test
    void aPodWhoseClaimIsMissingStaysPendingNamingTheClaim() throws Exception {
        api.create(Pods.pod("web-0").cpu("100m").claim("data-web-0").build());
        await(
                "web-0 told its claim is missing",
                () -> scheduledMessage("web-0").contains("persistentvolumeclaim \"data-web-0\" not found"));
        assertEquals(
                "0/2 nodes are available: persistentvolumeclaim \"data-web-0\" not found.",
                scheduledMessage("web-0").split(" preemption:")[0]);
        assertNull(api.nodeOf("web-0"));
    }

    /** A CSI volume bound to a claim of no class (so the controller binds it at once). */
    private void csiClaim(String claim, String handle) throws InterruptedException {
        api.client
                .resource(new PersistentVolumeBuilder()
                        .withNewMetadata()
                        .withName("pv-" + claim)
                        .endMetadata()
                        .withNewSpec()
                        .withStorageClassName("")
                        .withCapacity(Map.of("storage", new Quantity("1Gi")))
                        .withAccessModes("ReadWriteOnce")
                        .withNewCsi()
                        .withDriver(EBS)
                        .withVolumeHandle(handle)
                        .endCsi()
                        .endSpec()
                        .build())
                .create();
        api.client
                .resource(new PersistentVolumeClaimBuilder()
                        .withNewMetadata()
                        .withName(claim)
                        .withNamespace("default")
                        .endMetadata()
                        .withNewSpec()
                        .withStorageClassName("")
                        .withVolumeName("pv-" + claim)
                        .withAccessModes("ReadWriteOnce")
                        .withNewResources()
                        .withRequests(Map.of("storage", new Quantity("1Gi")))
                        .endResources()
                        .endSpec()
                        .build())
                .create();
        await(claim + " bound", () -> {
            PersistentVolumeClaim c = claim(claim);
            return c != null
                    && c.getStatus() != null
                    && "Bound".equals(c.getStatus().getPhase());
        });
    }

    private void csiNode(String node, int limit) {
        api.client
                .resource(new CSINodeBuilder()
                        .withNewMetadata()
                        .withName(node)
                        .endMetadata()
                        .withNewSpec()
                        .addNewDriver()
                        .withName(EBS)
                        .withNodeID(node)
                        .withNewAllocatable()
                        .withCount(limit)
                        .endAllocatable()
                        .endDriver()
                        .endSpec()
                        .build())
                .create();
    }

    @Test
    void aPodOverANodesAttachLimitGoesElsewhere() throws Exception {
        csiNode("n1", 1);
        csiNode("n2", 8);
        csiClaim("held", "vol-held");
        csiClaim("wanted", "vol-wanted");
        // n1 already attaches one EBS volume; n2 is busier, so without volumes n1 would win
        api.create(Pods.pod("holder").node("n1").cpu("100m").claim("held").build());
        api.create(Pods.pod("busy").node("n2").cpu("3").build());
        await(
                "the scheduler sees both CSINodes",
                () -> api.scheduler.delivered("CSINode", "n2") != null
                        && api.scheduler.delivered("Pod", "default/busy") != null
                        && api.scheduler.delivered("Pod", "default/holder") != null);
        api.create(Pods.pod("plain").cpu("100m").build());
        await("plain bound", () -> api.nodeOf("plain") != null);
        assertEquals("n1", api.nodeOf("plain"), "the less loaded node wins when volumes do not matter");

        api.create(Pods.pod("attacher").cpu("100m").claim("wanted").build());
        await("attacher bound", () -> api.nodeOf("attacher") != null);
        assertEquals("n2", api.nodeOf("attacher"), "n1 takes no second EBS volume");
    }

    @Test
    void aClaimOfALocalVolumeIsBoundAndItsPodGoesToThatVolumesNode() throws Exception {
        api.client
                .resource(new StorageClassBuilder()
                        .withNewMetadata()
                        .withName("local")
                        .endMetadata()
                        .withProvisioner("kubernetes.io/no-provisioner")
                        .withVolumeBindingMode("WaitForFirstConsumer")
                        .build())
                .create();
        PersistentVolume local = Volumes.local("local-n2", "n2", "10Gi", "local");
        local.setStatus(null);
        api.client.resource(local).create();
        await("local-n2 available", () -> {
            PersistentVolume pv =
                    api.client.persistentVolumes().withName("local-n2").get();
            return pv.getStatus() != null && "Available".equals(pv.getStatus().getPhase());
        });
        api.client.resource(Volumes.claim("data-db-0", "local", "5Gi")).create();
        // n2 is busier: only the volume sends the pod there
        api.create(Pods.pod("busy").node("n2").cpu("2").build());
        api.create(Pods.pod("db-0").cpu("100m").claim("data-db-0").build());
        await("db-0 bound", () -> api.nodeOf("db-0") != null);
        assertEquals("n2", api.nodeOf("db-0"));
        PersistentVolumeClaim c = claim("data-db-0");
        assertEquals("local-n2", c.getSpec().getVolumeName());
        assertEquals("Bound", c.getStatus().getPhase());
        assertEquals(
                "data-db-0",
                api.client
                        .persistentVolumes()
                        .withName("local-n2")
                        .get()
                        .getSpec()
                        .getClaimRef()
                        .getName());
    }
}
