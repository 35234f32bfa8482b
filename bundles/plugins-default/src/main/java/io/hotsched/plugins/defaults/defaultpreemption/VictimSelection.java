package io.hotsched.plugins.defaults.defaultpreemption;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The fewest pods to evict from one node so the pod fits: every lower-priority pod is removed,
 * then pods are put back, most important first (those protected by a disruption budget before the
 * others), as long as the pod still passes the Filter plugins. Works on copies of the node and the
 * cycle state, which it changes.
 */
final class VictimSelection {

    static final String NO_VICTIMS = "No preemption victims found for incoming pod";

    /** Victims (most important first) and how many of them break a budget; or why the node cannot help. */
    record Result(Status status, List<PodInfo> victims, int numPDBViolations) {
        static Result failed(Status s) {
            return new Result(s, List.of(), 0);
        }
    }

    private final Handle handle;

    VictimSelection(Handle handle) {
        this.handle = handle;
    }

    Result select(CycleState state, PodInfo pod, NodeInfo node, DisruptionBudgets budgets, Instant now) {
        List<PodInfo> potential = new ArrayList<>();
        // copied: removing pods from the node changes its list
        for (PodInfo p : List.copyOf(node.pods())) {
            if (p.priority() < pod.priority()) {
                potential.add(p);
                Status st = remove(state, pod, p, node);
                if (!st.isSuccess()) {
                    return Result.failed(st);
                }
            }
        }
        if (potential.isEmpty()) {
            return Result.failed(Status.unresolvable(NO_VICTIMS));
        }
        Status fits = handle.runFilterPluginsWithNominatedPods(state, pod, node);
        if (!fits.isSuccess()) {
            return Result.failed(fits);
        }
        Comparator<PodInfo> importance = PodImportance.order(now);
        potential.sort(importance);
        DisruptionBudgets.Split split = budgets.split(potential);
        List<PodInfo> victims = new ArrayList<>();
        int violations = 0;
        for (PodInfo p : split.violating()) {
            Status st = reprieve(state, pod, p, node, victims);
            if (st == null) {
                violations++;
            } else if (!st.isSuccess()) {
                return Result.failed(st);
            }
        }
        for (PodInfo p : split.nonViolating()) {
            Status st = reprieve(state, pod, p, node, victims);
            if (st != null && !st.isSuccess()) {
                return Result.failed(st);
            }
        }
        if (!split.violating().isEmpty() && !split.nonViolating().isEmpty()) {
            victims.sort(importance);
        }
        return new Result(Status.SUCCESS, victims, violations);
    }

    /**
     * Puts {@code p} back; if the pod then no longer fits, takes it out again and adds it to
     * {@code victims}. Returns Success when it stays, null when it became a victim, an error
     * status when an extension failed.
     */
    private Status reprieve(CycleState state, PodInfo pod, PodInfo p, NodeInfo node, List<PodInfo> victims) {
        node.addPod(p);
        Status st = handle.runPreFilterExtensionAddPod(state, pod, p, node);
        if (!st.isSuccess()) {
            return st;
        }
        if (handle.runFilterPluginsWithNominatedPods(state, pod, node).isSuccess()) {
            return Status.SUCCESS;
        }
        Status removed = remove(state, pod, p, node);
        if (!removed.isSuccess()) {
            return removed;
        }
        victims.add(p);
        return null;
    }

    private Status remove(CycleState state, PodInfo pod, PodInfo p, NodeInfo node) {
        node.removePod(p.uid());
        return handle.runPreFilterExtensionRemovePod(state, pod, p, node);
    }
}
