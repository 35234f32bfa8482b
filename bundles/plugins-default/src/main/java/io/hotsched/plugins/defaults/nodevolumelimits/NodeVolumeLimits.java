package io.hotsched.plugins.defaults.nodevolumelimits;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.storage.CSINode;
import io.fabric8.kubernetes.api.model.storage.CSINodeDriver;
import io.fabric8.kubernetes.api.model.storage.VolumeAttachment;
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
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PreFilterPlugin;
import io.hotsched.api.framework.PreFilterResult;
import io.hotsched.api.framework.QueueingHint;
import io.hotsched.api.framework.StateKey;
import io.hotsched.api.framework.Status;
import io.hotsched.plugins.defaults.helper.Claims;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A node takes no more volumes of a CSI driver than its CSINode allows
 * ({@code spec.drivers[].allocatable.count}): the pod's new volumes plus those its pods already
 * use and those attached to it (VolumeAttachments, which outlive a deleted pod until detached),
 * each volume counted once however many pods share it. Migrated in-tree volumes count under their
 * CSI driver. Unschedulable, since preemption can free attachments.
 */
public final class NodeVolumeLimits implements PreFilterPlugin, FilterPlugin, EnqueueExtensions {

    public static final String NAME = "NodeVolumeLimits";
    public static final String ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED = "node(s) exceed max volume count";
    private static final Status EXCEEDED = Status.unschedulable(ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED);

    private static final StateKey<Attachments> KEY = StateKey.of("PreFilter" + NAME, Attachments.class);

    /** The cluster's VolumeAttachments by node, read once per attempt rather than once per node. */
    record Attachments(Map<String, List<VolumeAttachment>> byNode) implements ImmutableStateData {}

    private final Listers listers;
    private final AttachableVolumes volumes;

    public NodeVolumeLimits(Handle handle) {
        this.listers = handle.listers();
        this.volumes =
                new AttachableVolumes(listers, UUID.randomUUID().toString().replace("-", ""));
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Whether the volume can count against a limit: a claim, a generic ephemeral or a migratable inline volume. */
    private static boolean attachable(Volume v) {
        return v.getPersistentVolumeClaim() != null || v.getEphemeral() != null || InTreeVolumes.pluginOf(v) != null;
    }

    @Override
    public PreFilterResult preFilter(CycleState state, PodInfo pod, NodeInfoLister nodes) {
        for (Volume v : Claims.volumes(pod)) {
            if (attachable(v)) {
                state.write(KEY, new Attachments(attachmentsByNode()));
                return PreFilterResult.ALL_NODES;
            }
        }
        return PreFilterResult.SKIP;
    }

    private Map<String, List<VolumeAttachment>> attachmentsByNode() {
        Map<String, List<VolumeAttachment>> out = new HashMap<>();
        for (VolumeAttachment va : listers.volumeAttachments().list()) {
            if (va.getSpec() != null && va.getSpec().getNodeName() != null) {
                out.computeIfAbsent(va.getSpec().getNodeName(), n -> new ArrayList<>())
                        .add(va);
            }
        }
        return out;
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
        if (Claims.volumes(pod).isEmpty()) {
            return Status.SUCCESS;
        }
        // no CSINode: the limits are unknown, so none applies
        CSINode csiNode = listers.csiNodes().get(node.name());
        Map<String, String> newVolumes = new LinkedHashMap<>();
        try {
            volumes.of(pod, csiNode, true, newVolumes);
        } catch (AttachableVolumes.Failure f) {
            return f.notFound ? Status.unresolvable(f.getMessage()) : Status.error(f.getMessage());
        }
        if (newVolumes.isEmpty()) {
            return Status.SUCCESS;
        }
        Map<String, Long> limits = limits(csiNode);
        if (limits.isEmpty()) {
            return Status.SUCCESS;
        }
        Map<String, String> attached = new HashMap<>();
        try {
            for (PodInfo existing : node.pods()) {
                volumes.of(existing, csiNode, false, attached);
            }
        } catch (AttachableVolumes.Failure f) {
            return Status.error(f.getMessage());
        }
        Map<String, Integer> attachedCount = new HashMap<>();
        for (Map.Entry<String, String> e : attached.entrySet()) {
            // a volume a pod on the node already uses is attached once for both
            newVolumes.remove(e.getKey());
            attachedCount.merge(e.getValue(), 1, Integer::sum);
        }
        Attachments attachments = state.readOrNull(KEY);
        Map<String, List<VolumeAttachment>> byNode = attachments == null ? attachmentsByNode() : attachments.byNode();
        countAttachments(byNode.getOrDefault(node.name(), List.of()), csiNode, attached, attachedCount);
        Map<String, Integer> newCount = new HashMap<>();
        newVolumes.values().forEach(driver -> newCount.merge(driver, 1, Integer::sum));
        for (Map.Entry<String, Integer> e : newCount.entrySet()) {
            Long limit = limits.get(e.getKey());
            if (limit != null && attachedCount.getOrDefault(e.getKey(), 0) + e.getValue() > limit) {
                return EXCEEDED;
            }
        }
        return Status.SUCCESS;
    }

    /** Volumes attached to the node that no pod on it accounts for (a deleted pod's, still detaching). */
    private void countAttachments(
            List<VolumeAttachment> onNode,
            CSINode csiNode,
            Map<String, String> attached,
            Map<String, Integer> attachedCount) {
        for (VolumeAttachment va : onNode) {
            String[] driverAndHandle = volumes.ofAttachment(csiNode, va);
            if (driverAndHandle == null) {
                continue;
            }
            String key = driverAndHandle[0] + "/" + driverAndHandle[1];
            if (attached.putIfAbsent(key, driverAndHandle[0]) == null) {
                attachedCount.merge(driverAndHandle[0], 1, Integer::sum);
            }
        }
    }

    /** The node's volume limit per CSI driver; drivers that report none are unlimited. */
    private static Map<String, Long> limits(CSINode csiNode) {
        if (csiNode == null || csiNode.getSpec() == null || csiNode.getSpec().getDrivers() == null) {
            return Map.of();
        }
        Map<String, Long> out = new HashMap<>();
        for (CSINodeDriver d : csiNode.getSpec().getDrivers()) {
            if (d.getAllocatable() != null && d.getAllocatable().getCount() != null) {
                out.put(d.getName(), d.getAllocatable().getCount().longValue());
            }
        }
        return out;
    }

    @Override
    public List<ClusterEventWithHint> eventsToRegister() {
        return List.of(
                // any new CSINode may bring the limits of a driver that has room
                ClusterEventWithHint.of(ClusterEvent.of(ClusterEvent.CSI_NODE, ActionType.ADD)),
                new ClusterEventWithHint(
                        ClusterEvent.of(ClusterEvent.CSI_NODE, ActionType.UPDATE),
                        NodeVolumeLimits::afterCsiNodeUpdated),
                new ClusterEventWithHint(
                        ClusterEvent.of(ClusterEvent.POD, ActionType.DELETE), NodeVolumeLimits::afterPodDeleted),
                new ClusterEventWithHint(
                        ClusterEvent.of(ClusterEvent.PERSISTENT_VOLUME_CLAIM, ActionType.ADD),
                        NodeVolumeLimits::afterClaimAdded),
                new ClusterEventWithHint(
                        ClusterEvent.of(ClusterEvent.VOLUME_ATTACHMENT, ActionType.DELETE),
                        this::afterAttachmentDeleted));
    }

    /** A driver's limit went up (or away), or the node got a driver it did not have. */
    static QueueingHint afterCsiNodeUpdated(PodInfo pod, Object oldObject, Object newObject) {
        Map<String, Long> before = limits((CSINode) oldObject);
        CSINode after = (CSINode) newObject;
        if (after.getSpec() == null || after.getSpec().getDrivers() == null) {
            return QueueingHint.SKIP;
        }
        Map<String, Boolean> hadDriver = new HashMap<>();
        CSINode old = (CSINode) oldObject;
        if (old.getSpec() != null && old.getSpec().getDrivers() != null) {
            old.getSpec().getDrivers().forEach(d -> hadDriver.put(d.getName(), true));
        }
        for (CSINodeDriver d : after.getSpec().getDrivers()) {
            Long was = before.get(d.getName());
            Long now = d.getAllocatable() == null || d.getAllocatable().getCount() == null
                    ? null
                    : d.getAllocatable().getCount().longValue();
            if (!hadDriver.containsKey(d.getName()) || was != null && (now == null || now > was)) {
                return QueueingHint.QUEUE;
            }
        }
        return QueueingHint.SKIP;
    }

    /** A pod that held volumes on a node left it. */
    static QueueingHint afterPodDeleted(PodInfo pod, Object oldObject, Object newObject) {
        Pod deleted = (Pod) oldObject;
        List<Volume> vs = deleted.getSpec() == null ? null : deleted.getSpec().getVolumes();
        String node = deleted.getSpec() == null ? null : deleted.getSpec().getNodeName();
        if (vs == null || vs.isEmpty() || node == null || node.isEmpty()) {
            return QueueingHint.SKIP;
        }
        for (Volume v : vs) {
            if (attachable(v)) {
                return QueueingHint.QUEUE;
            }
        }
        return QueueingHint.SKIP;
    }

    /** The claim (or ephemeral volume's claim) the pod waits for was created. */
    static QueueingHint afterClaimAdded(PodInfo pod, Object oldObject, Object newObject) {
        return Claims.usedBy(pod, (PersistentVolumeClaim) newObject) ? QueueingHint.QUEUE : QueueingHint.SKIP;
    }

    /** A detached volume that the pod's claim is bound to, or of the CSI driver of one of its migrated inline volumes. */
    QueueingHint afterAttachmentDeleted(PodInfo pod, Object oldObject, Object newObject) {
        VolumeAttachment va = (VolumeAttachment) oldObject;
        var source = va.getSpec() == null ? null : va.getSpec().getSource();
        if (source == null) {
            return QueueingHint.SKIP;
        }
        for (Volume v : Claims.volumes(pod)) {
            String claimName = Claims.claimName(pod, v);
            if (claimName != null && source.getPersistentVolumeName() != null) {
                PersistentVolumeClaim claim = listers.persistentVolumeClaims().get(pod.namespace(), claimName);
                if (claim != null
                        && claim.getSpec() != null
                        && source.getPersistentVolumeName()
                                .equals(claim.getSpec().getVolumeName())) {
                    return QueueingHint.QUEUE;
                }
            }
            String plugin = InTreeVolumes.pluginOf(v);
            var inline = source.getInlineVolumeSpec();
            if (plugin != null
                    && inline != null
                    && inline.getCsi() != null
                    && InTreeVolumes.driverOf(plugin).equals(inline.getCsi().getDriver())) {
                return QueueingHint.QUEUE;
            }
        }
        return QueueingHint.SKIP;
    }
}
