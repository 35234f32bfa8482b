package io.hotsched.plugins.defaults.nodevolumelimits;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.storage.CSINode;
import io.hotsched.plugins.defaults.helper.NodeLabels;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The in-tree volume plugins that moved to CSI drivers (csi-translation-lib's facts): which
 * volumes they serve, the CSI driver each became, and the volume handle a volume has under that
 * driver, so that a migrated volume counts against its driver's limit once, like the same volume
 * used through CSI.
 */
final class InTreeVolumes {

    static final String AWS_EBS = "kubernetes.io/aws-ebs";
    static final String GCE_PD = "kubernetes.io/gce-pd";
    static final String AZURE_DISK = "kubernetes.io/azure-disk";
    static final String AZURE_FILE = "kubernetes.io/azure-file";
    static final String CINDER = "kubernetes.io/cinder";
    static final String VSPHERE = "kubernetes.io/vsphere-volume";
    static final String PORTWORX = "kubernetes.io/portworx-volume";

    /** A migrated plugin: the CSI driver it became, and its source in an inline volume and in a PersistentVolume. */
    private record Migrated(
            String plugin,
            String driver,
            Function<Volume, Object> inline,
            Function<PersistentVolumeSpec, Object> persistent) {}

    /** In the order a volume's sources are tried. */
    private static final List<Migrated> MIGRATED = List.of(
            new Migrated(
                    AWS_EBS,
                    "ebs.csi.aws.com",
                    Volume::getAwsElasticBlockStore,
                    PersistentVolumeSpec::getAwsElasticBlockStore),
            new Migrated(
                    GCE_PD,
                    "pd.csi.storage.gke.io",
                    Volume::getGcePersistentDisk,
                    PersistentVolumeSpec::getGcePersistentDisk),
            new Migrated(AZURE_DISK, "disk.csi.azure.com", Volume::getAzureDisk, PersistentVolumeSpec::getAzureDisk),
            new Migrated(AZURE_FILE, "file.csi.azure.com", Volume::getAzureFile, PersistentVolumeSpec::getAzureFile),
            new Migrated(CINDER, "cinder.csi.openstack.org", Volume::getCinder, PersistentVolumeSpec::getCinder),
            new Migrated(
                    VSPHERE,
                    "csi.vsphere.vmware.com",
                    Volume::getVsphereVolume,
                    PersistentVolumeSpec::getVsphereVolume),
            new Migrated(
                    PORTWORX, "pxd.portworx.com", Volume::getPortworxVolume, PersistentVolumeSpec::getPortworxVolume));

    private static final Map<String, String> CSI_DRIVER =
            MIGRATED.stream().collect(Collectors.toUnmodifiableMap(Migrated::plugin, Migrated::driver));

    /** The plugins whose migration the scheduler counts (their migration gates are GA and locked). */
    private static final Set<String> COUNTED = Set.of(AWS_EBS, PORTWORX, GCE_PD, AZURE_DISK, CINDER);

    private static final Pattern EBS_VOLUME_ID = Pattern.compile("^vol-[^/]*$");
    private static final String UNSPECIFIED = "UNSPECIFIED";

    private InTreeVolumes() {}

    /** The in-tree plugin an inline volume uses, or null when none migrated to CSI. */
    static String pluginOf(Volume v) {
        for (Migrated m : MIGRATED) {
            if (m.inline().apply(v) != null) {
                return m.plugin();
            }
        }
        return null;
    }

    /** The in-tree plugin a PersistentVolume uses, or null when none migrated to CSI. */
    static String pluginOf(PersistentVolume pv) {
        PersistentVolumeSpec s = pv.getSpec();
        if (s != null) {
            for (Migrated m : MIGRATED) {
                if (m.persistent().apply(s) != null) {
                    return m.plugin();
                }
            }
        }
        return null;
    }

    /** Whether {@code name} is the provisioner name of a migrated in-tree plugin. */
    static boolean isPlugin(String name) {
        return CSI_DRIVER.containsKey(name);
    }

    /** The CSI driver the in-tree plugin became. */
    static String driverOf(String plugin) {
        return CSI_DRIVER.get(plugin);
    }

    /** Whether the node counts the plugin's volumes under its CSI driver (it reports a CSINode). */
    static boolean migrationOn(CSINode csiNode, String plugin) {
        return csiNode != null && plugin != null && COUNTED.contains(plugin);
    }

    /**
     * The CSI volume handle of a migrated PersistentVolume; null when it cannot be translated (an
     * EBS id of another form), so that it is not counted.
     */
    static String handleOf(PersistentVolume pv) {
        PersistentVolumeSpec s = pv.getSpec();
        if (s.getAwsElasticBlockStore() != null) {
            return ebsVolumeId(s.getAwsElasticBlockStore().getVolumeID());
        }
        if (s.getGcePersistentDisk() != null) {
            Map<String, String> labels = pv.getMetadata().getLabels();
            String zones =
                    labels == null ? null : labels.getOrDefault(NodeLabels.ZONE, labels.get(NodeLabels.BETA_ZONE));
            return gcePdHandle(zones, s.getGcePersistentDisk().getPdName());
        }
        if (s.getAzureDisk() != null) {
            return s.getAzureDisk().getDiskURI();
        }
        if (s.getCinder() != null) {
            return s.getCinder().getVolumeID();
        }
        if (s.getPortworxVolume() != null) {
            return s.getPortworxVolume().getVolumeID();
        }
        return null;
    }

    /** The CSI volume handle of a migrated inline volume; null when it cannot be translated. */
    static String handleOf(Volume v) {
        if (v.getAwsElasticBlockStore() != null) {
            return ebsVolumeId(v.getAwsElasticBlockStore().getVolumeID());
        }
        if (v.getGcePersistentDisk() != null) {
            return gcePdHandle(null, v.getGcePersistentDisk().getPdName());
        }
        if (v.getAzureDisk() != null) {
            return v.getAzureDisk().getDiskURI();
        }
        if (v.getCinder() != null) {
            return v.getCinder().getVolumeID();
        }
        if (v.getPortworxVolume() != null) {
            return v.getPortworxVolume().getVolumeID();
        }
        return null;
    }

    /** {@code aws://<zone>/vol-...} or a bare id, to the bare id; null for another form. */
    private static String ebsVolumeId(String id) {
        if (id == null) {
            return null;
        }
        if (!id.startsWith("aws://")) {
            return id;
        }
        String path = id.substring("aws://".length());
        int slash = path.indexOf('/');
        String volume = slash < 0 ? "" : path.substring(slash).replaceAll("^/+|/+$", "");
        return EBS_VOLUME_ID.matcher(volume).matches() ? volume : null;
    }

    /** A zonal disk's handle, or a regional one's when the zone label lists several zones of a region. */
    private static String gcePdHandle(String zones, String pdName) {
        if (zones == null || zones.isEmpty()) {
            return "projects/" + UNSPECIFIED + "/zones/" + UNSPECIFIED + "/disks/" + pdName;
        }
        String[] z = zones.split("__");
        if (z.length == 1) {
            return "projects/" + UNSPECIFIED + "/zones/" + z[0] + "/disks/" + pdName;
        }
        String region = z[0].substring(0, Math.max(0, z[0].lastIndexOf('-')));
        return "projects/" + UNSPECIFIED + "/regions/" + region + "/disks/" + pdName;
    }
}
