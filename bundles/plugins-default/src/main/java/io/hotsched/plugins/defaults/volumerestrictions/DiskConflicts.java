package io.hotsched.plugins.defaults.volumerestrictions;

import io.fabric8.kubernetes.api.model.Volume;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.plugins.defaults.helper.Claims;
import java.util.List;
import java.util.Objects;

/**
 * The in-tree disks two pods on one node cannot share: the same GCE PD unless both mount it
 * read-only, the same AWS EBS volume, the same iSCSI IQN unless both are read-only, the same Ceph
 * RBD image (a shared monitor, same pool and image) unless both are read-only.
 */
final class DiskConflicts {

    private DiskConflicts() {}

    /** Whether the pod has a volume of a kind that can conflict. */
    static boolean needsCheck(Volume v) {
        return v.getGcePersistentDisk() != null
                || v.getAwsElasticBlockStore() != null
                || v.getRbd() != null
                || v.getIscsi() != null;
    }

    /** Whether the pod can join the pods of the node without a disk conflict. */
    static boolean fits(PodInfo pod, NodeInfo node) {
        for (Volume v : Claims.volumes(pod)) {
            if (!needsCheck(v)) {
                continue;
            }
            for (PodInfo existing : node.pods()) {
                if (conflicts(v, existing)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Whether {@code v} conflicts with a volume of {@code pod}. */
    static boolean conflicts(Volume v, PodInfo pod) {
        for (Volume e : Claims.volumes(pod)) {
            if (v.getGcePersistentDisk() != null && e.getGcePersistentDisk() != null) {
                var a = v.getGcePersistentDisk();
                var b = e.getGcePersistentDisk();
                if (Objects.equals(a.getPdName(), b.getPdName()) && notBothReadOnly(a.getReadOnly(), b.getReadOnly())) {
                    return true;
                }
            }
            if (v.getAwsElasticBlockStore() != null
                    && e.getAwsElasticBlockStore() != null
                    && Objects.equals(
                            v.getAwsElasticBlockStore().getVolumeID(),
                            e.getAwsElasticBlockStore().getVolumeID())) {
                return true;
            }
            if (v.getIscsi() != null && e.getIscsi() != null) {
                var a = v.getIscsi();
                var b = e.getIscsi();
                if (Objects.equals(a.getIqn(), b.getIqn()) && notBothReadOnly(a.getReadOnly(), b.getReadOnly())) {
                    return true;
                }
            }
            if (v.getRbd() != null && e.getRbd() != null) {
                var a = v.getRbd();
                var b = e.getRbd();
                if (overlap(a.getMonitors(), b.getMonitors())
                        && Objects.equals(a.getPool(), b.getPool())
                        && Objects.equals(a.getImage(), b.getImage())
                        && notBothReadOnly(a.getReadOnly(), b.getReadOnly())) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Two mounts of one disk conflict unless both are read-only. */
    private static boolean notBothReadOnly(Boolean a, Boolean b) {
        return !(Boolean.TRUE.equals(a) && Boolean.TRUE.equals(b));
    }

    private static boolean overlap(List<String> a, List<String> b) {
        if (a == null || b == null) {
            return false;
        }
        for (String x : a) {
            if (b.contains(x)) {
                return true;
            }
        }
        return false;
    }
}
