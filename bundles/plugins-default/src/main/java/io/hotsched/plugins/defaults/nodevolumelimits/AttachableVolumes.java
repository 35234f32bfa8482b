package io.hotsched.plugins.defaults.nodevolumelimits;

import io.fabric8.kubernetes.api.model.CSIPersistentVolumeSource;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.storage.CSINode;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.api.model.storage.VolumeAttachment;
import io.hotsched.api.framework.Listers;
import io.hotsched.api.framework.ObjectKind;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.plugins.defaults.helper.Claims;
import java.util.Map;

/**
 * The volumes a pod (or an attachment) would attach, each as {@code <driver>/<volume handle>}
 * with its driver: a claim's bound CSI volume, a migrated in-tree one under its CSI driver, an
 * unbound claim under its class's provisioner with a handle of its own, a migrated inline volume.
 * Volumes of no CSI driver, or whose driver cannot be told, are not counted.
 */
final class AttachableVolumes {

    /** A failure to read a pod's volumes; {@link #notFound} when the pod's claim does not exist. */
    static final class Failure extends Exception {
        final boolean notFound;

        Failure(String message, boolean notFound) {
            super(message);
            this.notFound = notFound;
        }
    }

    private final Listers listers;
    /** Makes the handles of unbound claims unique to this plugin instance. */
    private final String randomPrefix;

    AttachableVolumes(Listers listers, String randomPrefix) {
        this.listers = listers;
        this.randomPrefix = randomPrefix;
    }

    /**
     * Adds the pod's attachable volumes to {@code out}. For the pod being scheduled
     * ({@code newPod}) a missing claim fails; for a pod already on the node it is not counted.
     */
    void of(PodInfo pod, CSINode csiNode, boolean newPod, Map<String, String> out) throws Failure {
        for (Volume v : Claims.volumes(pod)) {
            String claimName = Claims.claimName(pod, v);
            if (claimName == null) {
                inline(v, csiNode, out);
                continue;
            }
            if (claimName.isEmpty()) {
                throw new Failure("PersistentVolumeClaim had no name", false);
            }
            PersistentVolumeClaim claim = listers.persistentVolumeClaims().get(pod.namespace(), claimName);
            if (claim == null) {
                if (newPod) {
                    throw new Failure(
                            "looking up PVC " + pod.namespace() + "/" + claimName + ": "
                                    + Claims.notFound(ObjectKind.PERSISTENT_VOLUME_CLAIM, claimName),
                            true);
                }
                continue;
            }
            if (v.getEphemeral() != null) {
                String notOwned = Claims.notForPod(pod, claim);
                if (notOwned != null) {
                    throw new Failure(notOwned, false);
                }
            }
            String[] driverAndHandle = ofClaim(csiNode, claim);
            if (driverAndHandle != null) {
                out.put(driverAndHandle[0] + "/" + driverAndHandle[1], driverAndHandle[0]);
            }
        }
    }

    private void inline(Volume v, CSINode csiNode, Map<String, String> out) {
        String plugin = InTreeVolumes.pluginOf(v);
        if (!InTreeVolumes.migrationOn(csiNode, plugin)) {
            return;
        }
        String handle = InTreeVolumes.handleOf(v);
        if (handle != null) {
            String driver = InTreeVolumes.driverOf(plugin);
            out.put(driver + "/" + handle, driver);
        }
    }

    /** The driver and handle of a claim's volume; null when it has none to count. */
    private String[] ofClaim(CSINode csiNode, PersistentVolumeClaim claim) {
        String pvName = claim.getSpec() == null ? null : claim.getSpec().getVolumeName();
        PersistentVolume pv = pvName == null || pvName.isEmpty()
                ? null
                : listers.persistentVolumes().get(pvName);
        // an unbound claim, or one bound to a volume not (yet) seen, counts under its class
        return pv == null ? ofClass(csiNode, claim) : ofVolume(csiNode, pv);
    }

    /** The driver and handle of a volume; null when it is not a CSI volume nor a migrated one. */
    static String[] ofVolume(CSINode csiNode, PersistentVolume pv) {
        CSIPersistentVolumeSource csi =
                pv.getSpec() == null ? null : pv.getSpec().getCsi();
        if (csi != null) {
            return blank(csi.getDriver()) || blank(csi.getVolumeHandle())
                    ? null
                    : new String[] {csi.getDriver(), csi.getVolumeHandle()};
        }
        String plugin = InTreeVolumes.pluginOf(pv);
        if (!InTreeVolumes.migrationOn(csiNode, plugin)) {
            return null;
        }
        String handle = InTreeVolumes.handleOf(pv);
        return handle == null ? null : new String[] {InTreeVolumes.driverOf(plugin), handle};
    }

    private String[] ofClass(CSINode csiNode, PersistentVolumeClaim claim) {
        String className = Claims.storageClassOf(claim);
        // without a class the claim binds immediately, so it is bound before scheduling
        if (className.isEmpty()) {
            return null;
        }
        StorageClass sc = listers.storageClasses().get(className);
        if (sc == null || blank(sc.getProvisioner())) {
            return null;
        }
        String driver = sc.getProvisioner();
        if (InTreeVolumes.isPlugin(driver)) {
            if (!InTreeVolumes.migrationOn(csiNode, driver)) {
                return null;
            }
            driver = InTreeVolumes.driverOf(driver);
        }
        String ns = claim.getMetadata().getNamespace() == null
                ? "default"
                : claim.getMetadata().getNamespace();
        return new String[] {
            driver, randomPrefix + "-" + ns + "/" + claim.getMetadata().getName()
        };
    }

    /** The driver and handle of an attachment's volume; null when it names none. */
    String[] ofAttachment(CSINode csiNode, VolumeAttachment va) {
        var source = va.getSpec() == null ? null : va.getSpec().getSource();
        if (source == null) {
            return null;
        }
        if (!blank(source.getPersistentVolumeName())) {
            PersistentVolume pv = listers.persistentVolumes().get(source.getPersistentVolumeName());
            String[] known = pv == null ? null : ofVolume(csiNode, pv);
            return known != null ? known : new String[] {va.getSpec().getAttacher(), source.getPersistentVolumeName()};
        }
        CSIPersistentVolumeSource csi = source.getInlineVolumeSpec() == null
                ? null
                : source.getInlineVolumeSpec().getCsi();
        return csi == null || blank(csi.getVolumeHandle())
                ? null
                : new String[] {va.getSpec().getAttacher(), csi.getVolumeHandle()};
    }

    private static boolean blank(String s) {
        return s == null || s.isEmpty();
    }
}
