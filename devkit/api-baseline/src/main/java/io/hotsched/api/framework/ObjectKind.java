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
import java.util.List;
import java.util.Objects;

/**
 * A kind of cluster object that plugins read through {@link Listers}, as upstream's plugins read
 * it from an informer's lister: its name (the object's {@code kind}, which is also the
 * {@link ClusterEvent#resource()} its changes are reported under), its model class, and whether
 * its objects live in namespaces.
 *
 * <p>A cluster connection lists and watches every kind of {@link #LISTED} and reports each change
 * as {@code ClusterEvents.objectChanged(name, old, new)}; the scheduler keeps the latest objects
 * for the listers and moves the pods a change may help back to the active queue. A new kind (the
 * DRA plugin's ResourceClaim, ResourceSlice and DeviceClass) is a new constant here, added to
 * {@link #LISTED}, and a default method of {@link Listers}: neither the connection nor the
 * scheduler needs code of its own for it.
 *
 * @param name the kind's name, e.g. {@code PersistentVolumeClaim}
 * @param type the fabric8 model class of its objects
 * @param namespaced whether its objects are namespaced (a lister's {@code namespace} is null otherwise)
 * @since 1.7
 */
public record ObjectKind<T extends HasMetadata>(String name, Class<T> type, boolean namespaced) {

    public static final ObjectKind<PersistentVolume> PERSISTENT_VOLUME =
            new ObjectKind<>("PersistentVolume", PersistentVolume.class, false);
    public static final ObjectKind<PersistentVolumeClaim> PERSISTENT_VOLUME_CLAIM =
            new ObjectKind<>("PersistentVolumeClaim", PersistentVolumeClaim.class, true);
    public static final ObjectKind<StorageClass> STORAGE_CLASS =
            new ObjectKind<>("StorageClass", StorageClass.class, false);
    public static final ObjectKind<CSINode> CSI_NODE = new ObjectKind<>("CSINode", CSINode.class, false);
    public static final ObjectKind<CSIDriver> CSI_DRIVER = new ObjectKind<>("CSIDriver", CSIDriver.class, false);
    public static final ObjectKind<CSIStorageCapacity> CSI_STORAGE_CAPACITY =
            new ObjectKind<>("CSIStorageCapacity", CSIStorageCapacity.class, true);

    /** Volumes attached to nodes (or being detached): NodeVolumeLimits counts them against a node's limit. */
    public static final ObjectKind<VolumeAttachment> VOLUME_ATTACHMENT =
            new ObjectKind<>("VolumeAttachment", VolumeAttachment.class, false);

    /**
     * Dynamic resource allocation (resource.k8s.io/v1): the claims pods use, the devices drivers
     * publish, the classes requests name. DynamicResources reads them.
     *
     * @since 1.8
     */
    public static final ObjectKind<ResourceClaim> RESOURCE_CLAIM =
            new ObjectKind<>("ResourceClaim", ResourceClaim.class, true);

    /** @since 1.8 */
    public static final ObjectKind<ResourceSlice> RESOURCE_SLICE =
            new ObjectKind<>("ResourceSlice", ResourceSlice.class, false);

    /** @since 1.8 */
    public static final ObjectKind<DeviceClass> DEVICE_CLASS =
            new ObjectKind<>("DeviceClass", DeviceClass.class, false);

    /** Every kind a cluster connection follows for the listers. */
    public static final List<ObjectKind<?>> LISTED = List.of(
            PERSISTENT_VOLUME,
            PERSISTENT_VOLUME_CLAIM,
            STORAGE_CLASS,
            CSI_NODE,
            CSI_DRIVER,
            CSI_STORAGE_CAPACITY,
            VOLUME_ATTACHMENT,
            RESOURCE_CLAIM,
            RESOURCE_SLICE,
            DEVICE_CLASS);

    public ObjectKind {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
    }

    /** The listed kind named {@code name}, or null when plugins do not read it through listers. */
    public static ObjectKind<?> listed(String name) {
        for (ObjectKind<?> k : LISTED) {
            if (k.name.equals(name)) {
                return k;
            }
        }
        return null;
    }

    /** {@code object} as this kind's class; one of another class is refused, naming both. */
    public T cast(HasMetadata object) {
        if (!type.isInstance(object)) {
            throw new IllegalArgumentException("a " + name + " must be a " + type.getName() + ", got "
                    + (object == null ? "null" : object.getClass().getName()));
        }
        return type.cast(object);
    }
}
