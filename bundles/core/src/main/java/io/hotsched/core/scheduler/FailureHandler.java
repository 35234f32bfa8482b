package io.hotsched.core.scheduler;

import io.hotsched.api.framework.Code;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.PostFilterResult;
import io.hotsched.api.framework.Status;
import io.hotsched.core.metrics.SchedulerMetrics;
import io.hotsched.core.queue.QueuedPod;
import io.hotsched.core.queue.SchedulingQueue;
import io.hotsched.core.runtime.Attempt;
import io.hotsched.core.runtime.Diagnosis;
import io.hotsched.core.runtime.FitError;
import io.hotsched.core.runtime.FrameworkImpl;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A failed attempt, as upstream's handleSchedulingFailure: a pod no node fits runs PostFilter
 * (preemption may nominate a node) and waits among the unschedulable pods for an event that may
 * help; a pod a plugin rejected after the search waits likewise for that plugin's events; an error
 * backs the pod off. Each is reported.
 */
record FailureHandler(SchedulingQueue queue, Reporter reporter) {

    /** No node fits: PostFilter, then the pod waits for an event that may help. */
    void unfit(FrameworkImpl fw, CycleState state, QueuedPod qp, FitError fe) {
        Diagnosis d = fe.diagnosis();
        String nominated = null;
        PostFilterResult pf = fw.runPostFilter(state, fe.pod(), d.toNodeToStatus());
        if (pf.nominatedNodeName() != null
                && (pf.status().isSuccess() || pf.nominatedNodeName().isEmpty())) {
            nominated = pf.nominatedNodeName();
            // an empty name forgets the nomination
            queue.nominator().nominate(qp.pod(), nominated);
        }
        if (pf.status().code() == Code.ERROR) {
            d.setPostFilterMsg("Error running PostFilter plugin " + pf.status().plugin() + ": "
                    + pf.status().message());
        } else if (!pf.status().isSuccess() && !pf.status().message().isEmpty()) {
            d.setPostFilterMsg(pf.status().message());
        }
        String message = fe.getMessage();
        reporter.attemptDone(Attempt.of(state), SchedulerMetrics.UNSCHEDULABLE, fw.profileName());
        // explained before it is queued: whoever sees it queued sees why
        reporter.failed(qp, fw.profileName(), "unschedulable", message, rejections(d), "Unschedulable", nominated);
        queue.addUnschedulable(qp, d.unschedulablePlugins(), message);
    }

    /** An error: the pod backs off. */
    void error(QueuedPod qp, Attempt attempt, Status st, String profile) {
        reporter.attemptDone(attempt, SchedulerMetrics.ERROR, profile);
        reporter.failed(qp, profile, "error", st.message(), Map.of(), "SchedulerError", null);
        queue.addBackoff(qp, st.message());
    }

    /** Reserve, Permit or binding failed: a rejection waits for its plugin's events, an error backs off. */
    void afterAssume(QueuedPod qp, Attempt attempt, Status st, String profile) {
        if (!st.isRejection()) {
            error(qp, attempt, st, profile);
            return;
        }
        reporter.attemptDone(attempt, SchedulerMetrics.UNSCHEDULABLE, profile);
        reporter.failed(qp, profile, "unschedulable", st.message(), Map.of(), "Unschedulable", null);
        queue.addUnschedulable(qp, st.plugin() == null ? Set.of() : Set.of(st.plugin()), st.message());
    }

    private static Map<String, String> rejections(Diagnosis d) {
        Map<String, String> out = new TreeMap<>();
        d.nodeStatuses()
                .forEach((node, st) -> out.put(node, (st.plugin() == null ? "" : st.plugin() + ": ") + st.message()));
        return out;
    }
}
