package io.hotsched.embedded.standins;

import static io.hotsched.embedded.ApiServer.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.storage.StorageClassBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.hotsched.embedded.ApiServer;
import java.util.EnumSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The PV controller and provisioner stand-ins over HTTP: both binding modes, static and provisioned. */
class VolumeStandInsTest {

    @RegisterExtension
    static final ApiServer API = new ApiServer().withNode("w1", "w1-host");

    @BeforeAll
    static void start() {
        storageClass("manual", "kubernetes.io/no-provisioner", "Immediate");
        storageClass("fast", "hostpath.csi.k8s.io", "Immediate");
        storageClass("local", "hostpath.csi.k8s.io", "WaitForFirstConsumer");
        API.server().startStandIns(EnumSet.of(StandIn.PERSISTENT_VOLUME, StandIn.VOLUME_PROVISIONER));
    }

    static void storageClass(String name, String provisioner, String mode) {
        API.client()
                .storage()
                .v1()
                .storageClasses()
                .resource(new StorageClassBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .withProvisioner(provisioner)
                        .withVolumeBindingMode(mode)
                        .build())
                .create();
    }

    static PersistentVolume volume(String name, String size, String cls) {
        return new PersistentVolumeBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .addToCapacity("storage", new Quantity(size))
                .withAccessModes("ReadWriteOnce")
                .withStorageClassName(cls)
                .withPersistentVolumeReclaimPolicy("Retain")
                .withNewHostPath()
                .withPath("/tmp/" + name)
                .endHostPath()
                .endSpec()
                .build();
    }

    static PersistentVolumeClaim claim(String ns, String name, String size, String cls) {
        return new PersistentVolumeClaimBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(ns)
                .endMetadata()
                .withNewSpec()
                .withStorageClassName(cls)
                .withAccessModes("ReadWriteOnce")
                .withNewResources()
                .addToRequests("storage", new Quantity(size))
                .endResources()
                .endSpec()
                .build();
    }

    static PersistentVolumeClaim bound(String ns, String name) {
        return claimIn(ns, name, "Bound");
    }

    static PersistentVolumeClaim claimIn(String ns, String name, String phase) {
        return until(
                API.client().persistentVolumeClaims().inNamespace(ns).withName(name),
                c -> c != null
                        && c.getStatus() != null
                        && phase.equals(c.getStatus().getPhase()));
    }

    static PersistentVolume volumeIn(String name, String phase) {
        return until(
                API.client().persistentVolumes().withName(name),
                v -> v != null
                        && v.getStatus() != null
                        && phase.equals(v.getStatus().getPhase()));
    }

    @Test
    void immediateClaimGetsTheSmallestAvailableVolumeThatFits() {
        API.client().resource(volume("small", "1Gi", "manual")).create();
        API.client().resource(volume("medium", "5Gi", "manual")).create();
        API.client().resource(volume("large", "10Gi", "manual")).create();
        API.client().resource(volume("other-class", "3Gi", "")).create();
        volumeIn("large", "Available");
        API.client().resource(claim("vol", "data", "2Gi", "manual")).create();

        PersistentVolumeClaim c = bound("vol", "data");
        assertEquals("medium", c.getSpec().getVolumeName());
        assertEquals("yes", c.getMetadata().getAnnotations().get("pv.kubernetes.io/bind-completed"));
        assertEquals("yes", c.getMetadata().getAnnotations().get("pv.kubernetes.io/bound-by-controller"));
        assertEquals(new Quantity("5Gi"), c.getStatus().getCapacity().get("storage"));
        PersistentVolume v = volumeIn("medium", "Bound");
        assertEquals("data", v.getSpec().getClaimRef().getName());
        assertEquals(c.getMetadata().getUid(), v.getSpec().getClaimRef().getUid());
        assertEquals("yes", v.getMetadata().getAnnotations().get("pv.kubernetes.io/bound-by-controller"));

        // deleting the claim releases the volume (reclaim policy Retain)
        API.client()
                .persistentVolumeClaims()
                .inNamespace("vol")
                .withName("data")
                .delete();
        volumeIn("medium", "Released");
    }

    @Test
    void immediateClaimOfAProvisionedClassGetsANewVolume() {
        API.client().resource(claim("vol", "dyn", "3Gi", "fast")).create();
        PersistentVolumeClaim c = bound("vol", "dyn");
        String pv = "pvc-" + c.getMetadata().getUid();
        assertEquals(pv, c.getSpec().getVolumeName());
        assertEquals(
                "hostpath.csi.k8s.io",
                c.getMetadata().getAnnotations().get("volume.kubernetes.io/storage-provisioner"));
        assertEquals(
                "hostpath.csi.k8s.io",
                c.getMetadata().getAnnotations().get("volume.beta.kubernetes.io/storage-provisioner"));
        PersistentVolume v = API.client().persistentVolumes().withName(pv).get();
        assertEquals("hostpath.csi.k8s.io", v.getMetadata().getAnnotations().get("pv.kubernetes.io/provisioned-by"));
        assertEquals("fast", v.getSpec().getStorageClassName());
        assertEquals("Delete", v.getSpec().getPersistentVolumeReclaimPolicy());
        assertEquals(new Quantity("3Gi"), v.getSpec().getCapacity().get("storage"));
        assertNull(v.getSpec().getNodeAffinity());
    }

    @Test
    void waitForFirstConsumerWaitsForTheSelectedNode() {
        API.client().resource(claim("vol", "late", "1Gi", "local")).create();
        PersistentVolumeClaim pending = claimIn("vol", "late", "Pending");
        assertNull(pending.getSpec().getVolumeName());
        assertNull(API.client()
                .persistentVolumes()
                .withName("pvc-" + pending.getMetadata().getUid())
                .get());

        // what the scheduler's VolumeBinding plugin does once it chose a node
        API.client()
                .persistentVolumeClaims()
                .inNamespace("vol")
                .withName("late")
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        "{\"metadata\":{\"annotations\":{\"volume.kubernetes.io/selected-node\":\"w1\"}}}");
        PersistentVolumeClaim c = bound("vol", "late");
        PersistentVolume v = API.client()
                .persistentVolumes()
                .withName(c.getSpec().getVolumeName())
                .get();
        var term = v.getSpec()
                .getNodeAffinity()
                .getRequired()
                .getNodeSelectorTerms()
                .get(0);
        assertEquals("kubernetes.io/hostname", term.getMatchExpressions().get(0).getKey());
        assertEquals("w1-host", term.getMatchExpressions().get(0).getValues().get(0));
    }
}
