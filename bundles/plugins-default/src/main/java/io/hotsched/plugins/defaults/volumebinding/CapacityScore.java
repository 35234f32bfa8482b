package io.hotsched.plugins.defaults.volumebinding;

import io.hotsched.plugins.defaults.helper.BrokenLinear;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;

/**
 * Storage capacity scoring (upstream's StorageCapacityScoring): per class, the utilization the
 * pod's claims would make (requested over capacity: of the chosen volumes, or of the
 * CSIStorageCapacity that has room for the claims to provision) through the shape, averaged over
 * the classes. A capacity of 0, or less than requested, scores as full.
 */
final class CapacityScore {

    private CapacityScore() {}

    /** Requested and capacity bytes of one class. */
    private static final class Use {
        BigDecimal requested = BigDecimal.ZERO;
        BigDecimal capacity = BigDecimal.ZERO;
    }

    static long of(PodVolumes volumes, BrokenLinear shape) {
        Map<String, Use> byClass = new HashMap<>();
        if (!volumes.staticBindings.isEmpty()) {
            for (PodVolumes.Binding b : volumes.staticBindings) {
                String cls = b.pv().getSpec().getStorageClassName() == null
                        ? ""
                        : b.pv().getSpec().getStorageClassName();
                Use u = byClass.computeIfAbsent(cls, k -> new Use());
                u.requested = u.requested.add(VolumeMatch.bytes(VolumeMatch.storageRequest(b.pvc())));
                u.capacity = u.capacity.add(VolumeMatch.bytes(VolumeMatch.capacity(b.pv())));
            }
        } else {
            for (PodVolumes.Provision p : volumes.dynamicProvisions) {
                if (p.capacity() == null || p.capacity().getCapacity() == null) {
                    continue;
                }
                String cls = p.pvc().getSpec().getStorageClassName() == null
                        ? ""
                        : p.pvc().getSpec().getStorageClassName();
                Use u = byClass.computeIfAbsent(cls, k -> new Use());
                // the class's capacity on the node, not once per claim
                u.capacity = VolumeMatch.bytes(p.capacity().getCapacity());
                u.requested = u.requested.add(VolumeMatch.bytes(VolumeMatch.storageRequest(p.pvc())));
            }
        }
        if (byClass.isEmpty()) {
            return 0;
        }
        long sum = 0;
        for (Use u : byClass.values()) {
            long utilization = u.capacity.signum() == 0 || u.requested.compareTo(u.capacity) > 0
                    ? 100
                    : u.requested
                            .multiply(BigDecimal.valueOf(100))
                            .divideToIntegralValue(u.capacity)
                            .longValue();
            sum += shape.apply(utilization);
        }
        return Math.round((double) sum / byClass.size());
    }
}
