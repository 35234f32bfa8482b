package io.hotsched.plugins.defaults.volumezone;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.hotsched.api.framework.ActionType;
import io.hotsched.api.framework.ClusterEvent;
import io.hotsched.api.framework.ClusterEventWithHint;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.EnqueueExtensions;
import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.ImmutableStateData;
import io.hotsched.api.framework.Listers;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeInfoLister;
import io.hotsched.api.framework.ObjectKind;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PreFilterPlugin;
import io.hotsched.api.framework.PreFilterResult;
import io.hotsched.api.framework.QueueingHint;
import io.hotsched.api.framework.StateKey;
import io.hotsched.api.framework.Status;
import io.hotsched.plugins.defaults.helper.Claims;
import io.hotsched.plugins.defaults.helper.NodeLabels;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A pod's bound PersistentVolumes must be in the node's zone and region: every topology label of
 * a volume ({@code topology.kubernetes.io/zone}, {@code /region} and their beta twins, a value may
 * list zones joined by {@code __}) must be matched by the node's label of that key (or its GA
 * twin). A node without any of these labels passes (a single-zone cluster). Claims still to be
 * bound by WaitForFirstConsumer are left to VolumeBinding.
 */
public final class VolumeZone implements PreFilterPlugin, FilterPlugin, EnqueueExtensions {

    public static final String NAME = "VolumeZone";
    public static final String ERR_REASON_CONFLICT = "node(s) had no available volume zone";

    private static final List<String> TOPOLOGY_LABELS =
            List.of(NodeLabels.BETA_ZONE, NodeLabels.BETA_REGION, NodeLabels.ZONE, NodeLabels.REGION);

    private static final StateKey<Topologies> KEY = StateKey.of("PreFilter" + NAME, Topologies.class);
    private static final Status CONFLICT = Status.unresolvable(ERR_REASON_CONFLICT);

    /** One topology label of a volume: its key and the zones (or regions) it allows. */
    record PvTopology(String pv, String key, Set<String> values) {}

    /** The topology labels of the pod's bound volumes, from PreFilter. */
    record Topologies(List<PvTopology> topologies) implements ImmutableStateData {}

    /** The outcome of reading the pod's volumes: their topologies, or why they cannot be read. */
    private record Read(List<PvTopology> topologies, Status failure) {}

    private final Listers listers;

    public VolumeZone(Handle handle) {
        this.listers = handle.listers();
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public PreFilterResult preFilter(CycleState state, PodInfo pod, NodeInfoLister nodes) {
        Read r = read(pod);
        if (r.failure() != null) {
            return PreFilterResult.of(r.failure());
        }
        if (r.topologies().isEmpty()) {
            return PreFilterResult.SKIP;
        }
        state.write(KEY, new Topologies(r.topologies()));
        return PreFilterResult.ALL_NODES;
    }

    private Read read(PodInfo pod) {
        List<PvTopology> out = new ArrayList<>();
        for (Volume v : Claims.volumes(pod)) {
            if (v.getPersistentVolumeClaim() == null) {
                continue;
            }
            String claimName = v.getPersistentVolumeClaim().getClaimName();
            if (claimName == null || claimName.isEmpty()) {
                return failed("PersistentVolumeClaim had no name");
            }
            PersistentVolumeClaim claim = listers.persistentVolumeClaims().get(pod.namespace(), claimName);
            if (claim == null) {
                return failed(Claims.notFound(ObjectKind.PERSISTENT_VOLUME_CLAIM, claimName));
            }
            String pvName = claim.getSpec() == null ? null : claim.getSpec().getVolumeName();
            if (pvName == null || pvName.isEmpty()) {
                String className = Claims.storageClassOf(claim);
                if (className.isEmpty()) {
                    return failed("PersistentVolumeClaim had no pv name and storageClass name");
                }
                StorageClass sc = listers.storageClasses().get(className);
                if (sc == null) {
                    return failed(Claims.notFound(ObjectKind.STORAGE_CLASS, className));
                }
                if (sc.getVolumeBindingMode() == null) {
                    return failed("VolumeBindingMode not set for StorageClass \"" + className + "\"");
                }
                if ("WaitForFirstConsumer".equals(sc.getVolumeBindingMode())) {
                    continue;
                }
                return failed("PersistentVolume had no name");
            }
            PersistentVolume pv = listers.persistentVolumes().get(pvName);
            if (pv == null) {
                return failed(Claims.notFound(ObjectKind.PERSISTENT_VOLUME, pvName));
            }
            out.addAll(topologies(pv));
        }
        return new Read(out, null);
    }

    private static Read failed(String reason) {
        return new Read(List.of(), Status.unresolvable(reason));
    }

    /** The volume's topology labels that parse; one whose zone list has an empty entry is ignored, as upstream does. */
    static List<PvTopology> topologies(PersistentVolume pv) {
        Map<String, String> labels = pv.getMetadata().getLabels();
        if (labels == null || labels.isEmpty()) {
            return List.of();
        }
        List<PvTopology> out = new ArrayList<>(1);
        for (String key : TOPOLOGY_LABELS) {
            String value = labels.get(key);
            if (value == null) {
                continue;
            }
            Set<String> zones = zones(value);
            if (zones != null) {
                out.add(new PvTopology(pv.getMetadata().getName(), key, zones));
            }
        }
        return out;
    }

    /** A label's zones, split at {@code __} and trimmed; null when one of them is empty. */
    private static Set<String> zones(String value) {
        Set<String> out = new HashSet<>();
        for (String z : value.split("__", -1)) {
            String t = z.trim();
            if (t.isEmpty()) {
                return null;
            }
            out.add(t);
        }
        return Set.copyOf(out);
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
        if (Claims.volumes(pod).isEmpty()) {
            return Status.SUCCESS;
        }
        Topologies t = state.readOrNull(KEY);
        List<PvTopology> topologies;
        if (t == null) {
            // PreFilter did not run (a caller outside the framework): read them here, as upstream falls back
            Read r = read(pod);
            if (r.failure() != null) {
                return r.failure();
            }
            topologies = r.topologies();
        } else {
            topologies = t.topologies();
        }
        Map<String, String> labels = node.labels();
        boolean constrained = false;
        for (String key : TOPOLOGY_LABELS) {
            if (labels.containsKey(key)) {
                constrained = true;
                break;
            }
        }
        if (!constrained) {
            return Status.SUCCESS;
        }
        for (PvTopology pt : topologies) {
            String v = labels.get(pt.key());
            if (v == null) {
                v = labels.get(toGa(pt.key()));
            }
            if (v == null || !pt.values().contains(v)) {
                return CONFLICT;
            }
        }
        return Status.SUCCESS;
    }

    private static String toGa(String key) {
        return switch (key) {
            case NodeLabels.BETA_REGION -> NodeLabels.REGION;
            case NodeLabels.BETA_ZONE -> NodeLabels.ZONE;
            default -> key;
        };
    }

    @Override
    public List<ClusterEventWithHint> eventsToRegister() {
        return List.of(
                // the binding mode is immutable: only a new class matters
                new ClusterEventWithHint(
                        ClusterEvent.of(ClusterEvent.STORAGE_CLASS, ActionType.ADD), VolumeZone::afterClassAdded),
                ClusterEventWithHint.of(
                        ClusterEvent.of(ClusterEvent.NODE, ActionType.ADD, ActionType.UPDATE_NODE_LABEL)),
                new ClusterEventWithHint(
                        ClusterEvent.of(ClusterEvent.PERSISTENT_VOLUME_CLAIM, ActionType.ADD, ActionType.UPDATE),
                        VolumeZone::afterClaimChange),
                new ClusterEventWithHint(
                        ClusterEvent.of(ClusterEvent.PERSISTENT_VOLUME, ActionType.ADD, ActionType.UPDATE),
                        VolumeZone::afterVolumeChange));
    }

    static QueueingHint afterClassAdded(PodInfo pod, Object oldObject, Object newObject) {
        return "WaitForFirstConsumer".equals(((StorageClass) newObject).getVolumeBindingMode())
                ? QueueingHint.QUEUE
                : QueueingHint.SKIP;
    }

    /** A claim the pod names (as a persistentVolumeClaim volume) was created or changed. */
    static QueueingHint afterClaimChange(PodInfo pod, Object oldObject, Object newObject) {
        return Claims.mountedBy(pod, (PersistentVolumeClaim) newObject) ? QueueingHint.QUEUE : QueueingHint.SKIP;
    }

    /** A new volume, or one whose topology labels changed. */
    static QueueingHint afterVolumeChange(PodInfo pod, Object oldObject, Object newObject) {
        if (oldObject == null) {
            return QueueingHint.QUEUE;
        }
        return Objects.equals(topologies((PersistentVolume) oldObject), topologies((PersistentVolume) newObject))
                ? QueueingHint.SKIP
                : QueueingHint.QUEUE;
    }
}
