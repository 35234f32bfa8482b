package io.hotsched.plugins.defaults.defaultpreemption;

import io.hotsched.api.framework.ClusterException;
import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;
import io.hotsched.api.framework.WaitingPod;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What preemption does once it has chosen a candidate (upstream's prepareCandidate): each victim
 * marked with a DisruptionTarget condition and deleted (a victim held in Permit is rejected
 * instead), and the nominations of lower-priority pods to the node cleared, since they may no
 * longer fit there.
 *
 * <p>With upstream's {@code SchedulerAsyncPreemption} (KEP-4832) this runs on the scheduler's
 * background threads, after the cycle, and the preemptor is {@link #running} until it is done, so
 * {@link DefaultPreemption#preEnqueue} keeps it out of the active queue meanwhile. As upstream's:
 * victims already being deleted get no second call; when an eviction fails the rest are not
 * tried, and the preemptor is activated to try again at once rather than wait for an event. The
 * preemptor stops counting as preempting before the last victim's deletion, so the event of that
 * deletion finds it free to move (upstream 1.33's order; later releases look the last victim up in
 * their pod lister instead, which plugins here do not have). Victims are deleted one after the
 * other, where upstream deletes all but the last in parallel.
 */
final class Eviction {

    private final Handle handle;
    private final String pluginName;
    private final Set<String> preempting = ConcurrentHashMap.newKeySet();

    Eviction(Handle handle, String pluginName) {
        this.handle = handle;
        this.pluginName = pluginName;
    }

    /** Whether the pod's asynchronous preemption has not finished yet. */
    boolean running(String podUid) {
        return preempting.contains(podUid);
    }

    /** Evicts in the cycle; the first failure is the cycle's error. */
    Status now(Candidate c, PodInfo pod) {
        for (PodInfo v : c.victims()) {
            Status st = evict(c, pod, v);
            if (!st.isSuccess()) {
                return st;
            }
        }
        clearLowerNominations(c, pod);
        return Status.SUCCESS;
    }

    /** Evicts on the background threads; the pod is {@link #running} until then. */
    void later(Candidate c, PodInfo pod) {
        List<PodInfo> victims = c.victims().stream()
                .filter(v -> v.pod().getMetadata().getDeletionTimestamp() == null)
                .toList();
        if (victims.isEmpty()) {
            return;
        }
        preempting.add(pod.uid());
        handle.background().execute(() -> {
            boolean failed = true;
            try {
                failed = !clearLowerNominations(c, pod);
                boolean evicted = true;
                for (int i = 0; i < victims.size() - 1 && evicted; i++) {
                    evicted = evict(c, pod, victims.get(i)).isSuccess();
                }
                if (evicted) {
                    preempting.remove(pod.uid());
                    evicted = evict(c, pod, victims.get(victims.size() - 1)).isSuccess();
                }
                failed |= !evicted;
            } finally {
                preempting.remove(pod.uid());
                if (failed) {
                    // otherwise the pod could wait among the unschedulable ones for an event that never comes
                    handle.activate(pod);
                }
            }
        });
    }

    private Status evict(Candidate c, PodInfo pod, PodInfo victim) {
        WaitingPod waiting = handle.waitingPods().get(victim.uid());
        if (waiting != null) {
            waiting.reject(pluginName, "preempted");
            return Status.SUCCESS;
        }
        try {
            handle.cluster()
                    .patchPodStatus(victim, current -> Evaluator.withDisruptionTarget(current, pod.schedulerName()));
            handle.cluster().deletePod(victim, "Preempted by pod " + pod.uid() + " on node " + c.nodeName());
            return Status.SUCCESS;
        } catch (ClusterException e) {
            if (e.code() == 404) {
                // already gone: what preemption wanted
                return Status.SUCCESS;
            }
            return Status.error("preempting " + victim.key() + " on node " + c.nodeName(), e);
        } catch (RuntimeException e) {
            return Status.error("preempting " + victim.key() + " on node " + c.nodeName(), e);
        }
    }

    /** Not critical: a pod whose nomination stays finds out on its next attempt. */
    private boolean clearLowerNominations(Candidate c, PodInfo pod) {
        boolean cleared = true;
        for (PodInfo p : handle.nominatedPodsForNode(c.nodeName())) {
            if (p.priority() < pod.priority() && !p.uid().equals(pod.uid())) {
                try {
                    handle.cluster().patchPodStatus(p, Evaluator::withoutNomination);
                } catch (RuntimeException e) {
                    cleared = false;
                }
            }
        }
        return cleared;
    }
}
