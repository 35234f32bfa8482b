package io.hotsched.api.framework;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.storage.CSIDriver;
import io.fabric8.kubernetes.api.model.storage.CSINode;
import io.fabric8.kubernetes.api.model.storage.CSIStorageCapacity;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.api.model.storage.VolumeAttachment;
import org.osgi.annotation.versioning.ProviderType;

/**
 * The listers of the cluster objects plugins read besides pods and nodes, from
 * {@link Handle#listers()}: what upstream's plugins take from the shared informer factory
 * ({@code handle.SharedInformerFactory().Core().V1().PersistentVolumeClaims().Lister()}). An
 * implementation provides {@link #lister(ObjectKind)} for every kind of {@link ObjectKind#LISTED};
 * the typed methods only name the kinds.
 *
 * @since 1.7
 */
@ProviderType
public interface Listers {

    /** The lister of {@code kind}; empty for a kind the cluster connection does not serve. */
    <T extends HasMetadata> ObjectLister<T> lister(ObjectKind<T> kind);

    default ObjectLister<PersistentVolume> persistentVolumes() {
        return lister(ObjectKind.PERSISTENT_VOLUME);
    }

    default ObjectLister<PersistentVolumeClaim> persistentVolumeClaims() {
        return lister(ObjectKind.PERSISTENT_VOLUME_CLAIM);
    }

    default ObjectLister<StorageClass> storageClasses() {
        return lister(ObjectKind.STORAGE_CLASS);
    }

    default ObjectLister<CSINode> csiNodes() {
        return lister(ObjectKind.CSI_NODE);
    }

    default ObjectLister<CSIDriver> csiDrivers() {
        return lister(ObjectKind.CSI_DRIVER);
    }

    default ObjectLister<CSIStorageCapacity> csiStorageCapacities() {
        return lister(ObjectKind.CSI_STORAGE_CAPACITY);
    }

    default ObjectLister<VolumeAttachment> volumeAttachments() {
        return lister(ObjectKind.VOLUME_ATTACHMENT);
    }

    /** @since 1.8 */
    default ObjectLister<ResourceClaim> resourceClaims() {
        return lister(ObjectKind.RESOURCE_CLAIM);
    }

    /** @since 1.8 */
    default ObjectLister<ResourceSlice> resourceSlices() {
        return lister(ObjectKind.RESOURCE_SLICE);
    }

    /** @since 1.8 */
    default ObjectLister<DeviceClass> deviceClasses() {
        return lister(ObjectKind.DEVICE_CLASS);
    }
}
