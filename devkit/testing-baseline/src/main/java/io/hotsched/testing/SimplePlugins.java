package io.hotsched.testing;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.hotsched.api.framework.ActionType;
import io.hotsched.api.framework.BindPlugin;
import io.hotsched.api.framework.ClusterEvent;
import io.hotsched.api.framework.ClusterEventWithHint;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.EnqueueExtensions;
import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.QueueSortPlugin;
import io.hotsched.api.framework.QueuedPodInfo;
import io.hotsched.api.framework.QueueingHint;
import io.hotsched.api.framework.ScorePlugin;
import io.hotsched.api.framework.Status;
import java.util.List;

/**
 * The smallest plugin set that schedules: a queue sort, a cpu fit filter and least-allocated
 * scorer, and a binder. For tests of the framework and the cluster connection, not of plugins.
 * Their names are the upstream ones they stand in for.
 */
public final class SimplePlugins {

    private SimplePlugins() {}

    /** Higher priority first, then FIFO. */
    public static class Sort implements QueueSortPlugin {
        @Override
        public String name() {
            return "PrioritySort";
        }

        @Override
        public boolean less(QueuedPodInfo a, QueuedPodInfo b) {
            if (a.pod().priority() != b.pod().priority()) {
                return a.pod().priority() > b.pod().priority();
            }
            return a.timestamp().isBefore(b.timestamp());
        }
    }

    /** Rejects nodes without enough free cpu or pod slots; scores the emptiest node highest. */
    public static class CpuFit implements FilterPlugin, ScorePlugin {
        @Override
        public String name() {
            return "NodeResourcesFit";
        }

        @Override
        public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
            long free = node.allocatable().milliCpu() - node.requested().milliCpu();
            if (pod.requests().milliCpu() > free) {
                return Status.unschedulable("Insufficient cpu");
            }
            if (node.pods().size() + 1 > node.allocatable().allowedPods()) {
                return Status.unschedulable("Too many pods");
            }
            return Status.SUCCESS;
        }

        @Override
        public long score(CycleState state, PodInfo pod, NodeInfo node) {
            long alloc = node.allocatable().milliCpu();
            long req =
                    node.nonZeroRequested().milliCpu() + pod.nonZeroRequests().milliCpu();
            return alloc == 0 || req > alloc ? 0 : (alloc - req) * 100 / alloc;
        }
    }

    /** Binds through the cluster client, as DefaultBinder does. */
    public record Binder(Handle handle) implements BindPlugin {
        @Override
        public String name() {
            return "DefaultBinder";
        }

        @Override
        public Status bind(CycleState state, PodInfo pod, String nodeName) {
            try {
                handle.cluster().bind(pod, nodeName);
                return Status.SUCCESS;
            } catch (RuntimeException e) {
                return Status.error(e);
            }
        }
    }

    /**
     * Lets a pod through only when every claim it names exists in the handle's listers (named
     * VolumeBinding, whose first check this is); only a new claim of one of its names requeues it.
     */
    public record ClaimsExist(Handle handle) implements FilterPlugin, EnqueueExtensions {
        @Override
        public String name() {
            return "VolumeBinding";
        }

        @Override
        public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
            for (String claim : pod.claimNames()) {
                if (handle.listers().persistentVolumeClaims().get(pod.namespace(), claim) == null) {
                    return Status.unresolvable("persistentvolumeclaim \"" + claim + "\" not found");
                }
            }
            return Status.SUCCESS;
        }

        @Override
        public List<ClusterEventWithHint> eventsToRegister() {
            return List.of(new ClusterEventWithHint(
                    ClusterEvent.of(ClusterEvent.PERSISTENT_VOLUME_CLAIM, ActionType.ADD),
                    (pod, oldObject, newObject) -> pod.claimNames()
                                    .contains(((PersistentVolumeClaim) newObject)
                                            .getMetadata()
                                            .getName())
                            ? QueueingHint.QUEUE
                            : QueueingHint.SKIP));
        }
    }
}
