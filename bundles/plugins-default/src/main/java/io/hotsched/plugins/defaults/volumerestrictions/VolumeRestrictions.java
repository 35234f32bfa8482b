package io.hotsched.plugins.defaults.volumerestrictions;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Volume;
import io.hotsched.api.framework.ActionType;
import io.hotsched.api.framework.ClusterEvent;
import io.hotsched.api.framework.ClusterEventWithHint;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.EnqueueExtensions;
import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.Listers;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeInfoLister;
import io.hotsched.api.framework.ObjectKind;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PreFilterExtensions;
import io.hotsched.api.framework.PreFilterPlugin;
import io.hotsched.api.framework.PreFilterResult;
import io.hotsched.api.framework.QueueingHint;
import io.hotsched.api.framework.StateData;
import io.hotsched.api.framework.StateKey;
import io.hotsched.api.framework.Status;
import io.hotsched.plugins.defaults.helper.Claims;
import io.hotsched.plugins.defaults.helper.States;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Volumes two pods cannot share: the in-tree disks of {@link DiskConflicts} on the same node, and
 * a ReadWriteOncePod claim anywhere in the cluster (a claim any scheduled pod uses rejects every
 * node, Unschedulable so that preemption may free it). PreFilter skips a pod with neither.
 */
public final class VolumeRestrictions implements PreFilterPlugin, FilterPlugin, PreFilterExtensions, EnqueueExtensions {

    public static final String NAME = "VolumeRestrictions";
    public static final String ERR_REASON_DISK_CONFLICT = "node(s) had no available disk";
    public static final String ERR_REASON_READ_WRITE_ONCE_POD_CONFLICT =
            "node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode";
    static final String READ_WRITE_ONCE_POD = "ReadWriteOncePod";

    private static final StateKey<Conflicts> KEY = StateKey.of("PreFilter" + NAME, Conflicts.class);
    private static final Status DISK_CONFLICT = Status.unschedulable(ERR_REASON_DISK_CONFLICT);
    private static final Status RWOP_CONFLICT = Status.unschedulable(ERR_REASON_READ_WRITE_ONCE_POD_CONFLICT);

    /**
     * The pod's ReadWriteOncePod claims and how many scheduled pods use them; AddPod and RemovePod
     * change the count, so a copy is a copy.
     */
    static final class Conflicts implements StateData {
        final Set<String> readWriteOncePodClaims;
        int refCount;

        Conflicts(Set<String> claims, int refCount) {
            this.readWriteOncePodClaims = claims;
            this.refCount = refCount;
        }

        void update(PodInfo pod, int sign) {
            for (Volume v : Claims.volumes(pod)) {
                if (v.getPersistentVolumeClaim() != null
                        && readWriteOncePodClaims.contains(
                                v.getPersistentVolumeClaim().getClaimName())) {
                    refCount += sign;
                }
            }
        }

        @Override
        public StateData copy() {
            return new Conflicts(readWriteOncePodClaims, refCount);
        }
    }

    private final Listers listers;

    public VolumeRestrictions(Handle handle) {
        this.listers = handle.listers();
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public PreFilterResult preFilter(CycleState state, PodInfo pod, NodeInfoLister nodes) {
        boolean disks = false;
        Set<String> rwop = new HashSet<>();
        for (Volume v : Claims.volumes(pod)) {
            disks |= DiskConflicts.needsCheck(v);
            if (v.getPersistentVolumeClaim() == null) {
                continue;
            }
            String name = v.getPersistentVolumeClaim().getClaimName();
            PersistentVolumeClaim claim = listers.persistentVolumeClaims().get(pod.namespace(), name);
            if (claim == null) {
                return PreFilterResult.of(
                        Status.unresolvable(Claims.notFound(ObjectKind.PERSISTENT_VOLUME_CLAIM, name)));
            }
            if (Claims.hasAccessMode(claim, READ_WRITE_ONCE_POD)) {
                rwop.add(name);
            }
        }
        int used = 0;
        for (String claim : rwop) {
            if (nodes.isPVCUsedByPods(pod.namespace() + "/" + claim)) {
                used++;
            }
        }
        if (!disks && used == 0) {
            return PreFilterResult.SKIP;
        }
        state.write(KEY, new Conflicts(Set.copyOf(rwop), used));
        return PreFilterResult.ALL_NODES;
    }

    @Override
    public PreFilterExtensions preFilterExtensions() {
        return this;
    }

    @Override
    public Status addPod(CycleState state, PodInfo podToSchedule, PodInfo podToAdd, NodeInfo node) {
        return change(state, podToAdd, 1);
    }

    @Override
    public Status removePod(CycleState state, PodInfo podToSchedule, PodInfo podToRemove, NodeInfo node) {
        return change(state, podToRemove, -1);
    }

    private static Status change(CycleState state, PodInfo pod, int sign) {
        Conflicts c = state.readOrNull(KEY);
        if (c == null) {
            return Status.error("cannot read \"" + KEY.name() + "\" from cycleState");
        }
        c.update(pod, sign);
        return Status.SUCCESS;
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
        if (!DiskConflicts.fits(pod, node)) {
            return DISK_CONFLICT;
        }
        Conflicts c = state.readOrNull(KEY);
        if (c == null) {
            return States.notFound(KEY);
        }
        return c.refCount > 0 ? RWOP_CONFLICT : Status.SUCCESS;
    }

    @Override
    public List<ClusterEventWithHint> eventsToRegister() {
        return List.of(
                new ClusterEventWithHint(
                        ClusterEvent.of(ClusterEvent.POD, ActionType.DELETE), VolumeRestrictions::afterPodDeleted),
                ClusterEventWithHint.of(ClusterEvent.of(ClusterEvent.NODE, ActionType.ADD)),
                new ClusterEventWithHint(
                        ClusterEvent.of(ClusterEvent.PERSISTENT_VOLUME_CLAIM, ActionType.ADD),
                        VolumeRestrictions::afterClaimAdded));
    }

    /** The claim the pod waits for (to read its access modes) was created. */
    static QueueingHint afterClaimAdded(PodInfo pod, Object oldObject, Object newObject) {
        return Claims.mountedBy(pod, (PersistentVolumeClaim) newObject) ? QueueingHint.QUEUE : QueueingHint.SKIP;
    }

    /** A deleted pod of the namespace held a disk the pod conflicts with, or a claim the pod uses. */
    static QueueingHint afterPodDeleted(PodInfo pod, Object oldObject, Object newObject) {
        PodInfo deleted = PodInfo.of((Pod) oldObject);
        if (!deleted.namespace().equals(pod.namespace())) {
            return QueueingHint.SKIP;
        }
        for (Volume v : Claims.volumes(pod)) {
            if (DiskConflicts.needsCheck(v) && DiskConflicts.conflicts(v, deleted)) {
                return QueueingHint.QUEUE;
            }
        }
        Set<String> claims = new HashSet<>();
        for (Volume v : Claims.volumes(pod)) {
            if (v.getPersistentVolumeClaim() != null) {
                claims.add(v.getPersistentVolumeClaim().getClaimName());
            }
        }
        for (Volume v : Claims.volumes(deleted)) {
            if (v.getPersistentVolumeClaim() != null
                    && claims.contains(v.getPersistentVolumeClaim().getClaimName())) {
                return QueueingHint.QUEUE;
            }
        }
        return QueueingHint.SKIP;
    }
}
