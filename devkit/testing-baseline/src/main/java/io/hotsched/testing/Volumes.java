package io.hotsched.testing;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;

/** PersistentVolumes and claims for tests of the volume plugins. */
public final class Volumes {

    private Volumes() {}

    /**
     * An Available ReadWriteOnce volume of {@code className} and {@code size} that only the node
     * whose {@code kubernetes.io/hostname} is {@code node} reaches (a local volume).
     */
    public static PersistentVolume local(String name, String node, String size, String className) {
        return new PersistentVolumeBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withStorageClassName(className)
                .withCapacity(Map.of("storage", new Quantity(size)))
                .withAccessModes("ReadWriteOnce")
                .withNewLocal()
                .withPath("/mnt/disks/" + name)
                .endLocal()
                .withNewNodeAffinity()
                .withNewRequired()
                .addNewNodeSelectorTerm()
                .addNewMatchExpression()
                .withKey("kubernetes.io/hostname")
                .withOperator("In")
                .withValues(node)
                .endMatchExpression()
                .endNodeSelectorTerm()
                .endRequired()
                .endNodeAffinity()
                .endSpec()
                .withNewStatus()
                .withPhase("Available")
                .endStatus()
                .build();
    }

    /** A ReadWriteOnce claim in namespace default of {@code className} asking for {@code size}. */
    public static PersistentVolumeClaim claim(String name, String className, String size) {
        return new PersistentVolumeClaimBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("default")
                .endMetadata()
                .withNewSpec()
                .withStorageClassName(className)
                .withAccessModes("ReadWriteOnce")
                .withNewResources()
                .withRequests(Map.of("storage", new Quantity(size)))
                .endResources()
                .endSpec()
                .build();
    }
}
