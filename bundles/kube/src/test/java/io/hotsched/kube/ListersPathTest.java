package io.hotsched.kube;

import static io.hotsched.kube.ApiServerFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.fabric8.kubernetes.api.model.storage.CSIDriverBuilder;
import io.fabric8.kubernetes.api.model.storage.CSINodeBuilder;
import io.fabric8.kubernetes.api.model.storage.CSIStorageCapacityBuilder;
import io.fabric8.kubernetes.api.model.storage.StorageClassBuilder;
import io.fabric8.kubernetes.api.model.storage.VolumeAttachmentBuilder;
import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.ObjectKind;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import io.hotsched.testing.SimplePlugins;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The listed kinds over HTTP: the cluster connection's informers deliver PersistentVolumes,
 * claims, StorageClasses, the CSI kinds and the DRA kinds to the plugins' listers, and a claim created after its
 * pod requeues the pod, which is then bound.
 */
class ListersPathTest {

    @AutoClose
    private ApiServerFixture api;

    private final AtomicReference<Handle> handle = new AtomicReference<>();

    @BeforeEach
    void start() throws Exception {
        api = new ApiServerFixture(Nodes.node("n1").cpu("4").build());
        Map<String, PluginFactory> plugins = ConnectedScheduler.simplePlugins();
        plugins.put("VolumeBinding", (args, h) -> {
            handle.set(h);
            return new SimplePlugins.ClaimsExist(h);
        });
        api.connect(plugins);
    }

    @Test
    void aPodWaitsForItsClaimAndIsBoundOnceTheClaimIsCreated() throws Exception {
        api.create(Pods.pod("p").cpu("100m").claim("data-p").build());
        await(
                "p told its claim is missing",
                () -> api.hasScheduledCondition(
                        "p", "0/1 nodes are available: 1 persistentvolumeclaim \"data-p\" not found."));
        assertNull(api.nodeOf("p"));

        api.client
                .persistentVolumeClaims()
                .resource(new PersistentVolumeClaimBuilder()
                        .withNewMetadata()
                        .withName("data-p")
                        .withNamespace("default")
                        .endMetadata()
                        .build())
                .create();
        await("p bound", () -> api.nodeOf("p") != null);
        assertEquals("n1", api.nodeOf("p"));
    }

    @Test
    void everyListedKindReachesTheListers() throws Exception {
        List<HasMetadata> objects = List.of(
                new PersistentVolumeBuilder()
                        .withNewMetadata()
                        .withName("pv1")
                        .endMetadata()
                        .withNewSpec()
                        .withCapacity(Map.of("storage", new Quantity("1Gi")))
                        .endSpec()
                        .build(),
                new StorageClassBuilder()
                        .withNewMetadata()
                        .withName("local")
                        .endMetadata()
                        .withProvisioner("kubernetes.io/no-provisioner")
                        .withVolumeBindingMode("WaitForFirstConsumer")
                        .build(),
                new CSINodeBuilder()
                        .withNewMetadata()
                        .withName("n1")
                        .endMetadata()
                        .withNewSpec()
                        .addNewDriver()
                        .withName("ebs.csi.aws.com")
                        .withNodeID("n1")
                        .withNewAllocatable()
                        .withCount(2)
                        .endAllocatable()
                        .endDriver()
                        .endSpec()
                        .build(),
                new CSIDriverBuilder()
                        .withNewMetadata()
                        .withName("ebs.csi.aws.com")
                        .endMetadata()
                        .withNewSpec()
                        .withAttachRequired(true)
                        .endSpec()
                        .build(),
                new CSIStorageCapacityBuilder()
                        .withNewMetadata()
                        .withName("cap1")
                        .withNamespace("default")
                        .endMetadata()
                        .withStorageClassName("local")
                        .withCapacity(new Quantity("10Gi"))
                        .build(),
                new VolumeAttachmentBuilder()
                        .withNewMetadata()
                        .withName("va1")
                        .endMetadata()
                        .withNewSpec()
                        .withAttacher("ebs.csi.aws.com")
                        .withNodeName("n1")
                        .withNewSource()
                        .withPersistentVolumeName("pv1")
                        .endSource()
                        .endSpec()
                        .build(),
                new DeviceClassBuilder()
                        .withNewMetadata()
                        .withName("gpu.example.com")
                        .endMetadata()
                        .withNewSpec()
                        .endSpec()
                        .build(),
                new ResourceSliceBuilder()
                        .withNewMetadata()
                        .withName("n1-gpu")
                        .endMetadata()
                        .withNewSpec()
                        .withDriver("gpu.example.com")
                        .withNodeName("n1")
                        .withNewPool()
                        .withName("n1")
                        .withGeneration(1L)
                        .withResourceSliceCount(1L)
                        .endPool()
                        .addNewDevice()
                        .withName("gpu-0")
                        .endDevice()
                        .endSpec()
                        .build(),
                new ResourceClaimBuilder()
                        .withNewMetadata()
                        .withName("gpu")
                        .withNamespace("default")
                        .endMetadata()
                        .withNewSpec()
                        .withNewDevices()
                        .addNewRequest()
                        .withName("gpu")
                        .withNewExactly()
                        .withDeviceClassName("gpu.example.com")
                        .endExactly()
                        .endRequest()
                        .endDevices()
                        .endSpec()
                        .build());
        for (HasMetadata o : objects) {
            HasMetadata created = api.client.resource(o).create();
            String kind = created.getKind();
            String key = created.getMetadata().getNamespace() == null
                    ? created.getMetadata().getName()
                    : "default/" + created.getMetadata().getName();
            await(kind + " delivered", () -> api.scheduler.delivered(kind, key) != null);
        }
        await("the plugin built", () -> handle.get() != null);
        var listers = handle.get().listers();
        assertEquals(
                "1Gi",
                listers.persistentVolumes()
                        .get("pv1")
                        .getSpec()
                        .getCapacity()
                        .get("storage")
                        .toString());
        assertEquals(
                "WaitForFirstConsumer", listers.storageClasses().get("local").getVolumeBindingMode());
        assertEquals(
                2,
                listers.csiNodes()
                        .get("n1")
                        .getSpec()
                        .getDrivers()
                        .get(0)
                        .getAllocatable()
                        .getCount());
        assertNotNull(listers.csiDrivers().get("ebs.csi.aws.com"));
        assertEquals(
                "local", listers.csiStorageCapacities().get("default", "cap1").getStorageClassName());
        assertNotNull(listers.deviceClasses().get("gpu.example.com"));
        assertEquals(
                "gpu-0",
                listers.resourceSlices()
                        .get("n1-gpu")
                        .getSpec()
                        .getDevices()
                        .get(0)
                        .getName());
        assertEquals(
                "gpu.example.com",
                listers.resourceClaims()
                        .get("default", "gpu")
                        .getSpec()
                        .getDevices()
                        .getRequests()
                        .get(0)
                        .getExactly()
                        .getDeviceClassName());
        assertEquals(ObjectKind.LISTED.size(), objects.size() + 1, "every listed kind but the claim is created here");
    }
}
