package io.hotsched.plugins.defaults.volumebinding;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.storage.CSIStorageCapacity;
import java.util.List;

/**
 * What a pod's unbound claims get on one node (upstream's PodVolumes): existing volumes to bind
 * them to, and claims to provision (with the CSIStorageCapacity that has room, when the driver
 * reports capacity). Filter makes one per node; Reserve replaces the objects by the versions it
 * assumed, PreBind by the ones the API server stored.
 */
final class PodVolumes {

    /** A claim and the volume chosen for it. */
    record Binding(PersistentVolume pv, PersistentVolumeClaim pvc) {}

    /** A claim to provision on the node. */
    record Provision(PersistentVolumeClaim pvc, CSIStorageCapacity capacity) {}

    volatile List<Binding> staticBindings;
    volatile List<Provision> dynamicProvisions;

    PodVolumes(List<Binding> staticBindings, List<Provision> dynamicProvisions) {
        this.staticBindings = staticBindings;
        this.dynamicProvisions = dynamicProvisions;
    }
}
