package io.hotsched.core.scheduler;

import io.fabric8.kubernetes.api.model.Pod;
import io.hotsched.api.cluster.ClusterBackend;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.core.admin.ExplainView;
import io.hotsched.core.metrics.SchedulerMetrics;
import io.hotsched.core.queue.QueuedPod;
import io.hotsched.core.runtime.Attempt;
import io.hotsched.core.runtime.ScheduleResult;
import io.hotsched.core.runtime.ScoreTable;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an attempt leaves behind for its users: the attempt duration metric, the explanation
 * {@code sched:explain} shows, and, written off the scheduling thread, the pod's condition and
 * its Event, as kube-scheduler writes them.
 */
record Reporter(
        Explanations explanations,
        Clock clock,
        SchedulerMetrics metrics,
        ExecutorService statusWriter,
        Supplier<ClusterBackend> backend,
        PendingNominations nominations) {

    private static final Logger LOG = LoggerFactory.getLogger(Reporter.class);

    /** scheduler_scheduling_attempt_duration_seconds: from the pod leaving the queue to its result. */
    void attemptDone(Attempt attempt, String result, String profile) {
        if (attempt != null) {
            metrics.attemptDuration.with(result, profile).observeSince(attempt.startNanos);
        }
    }

    /** The attempt failed: explained, the pod's condition set, a FailedScheduling Event recorded. */
    void failed(
            QueuedPod qp,
            String profile,
            String outcome,
            String message,
            Map<String, String> byNode,
            String conditionReason,
            String nominated) {
        PodInfo pod = qp.pod();
        explanations.put(new ExplainView(
                pod.key(), profile, clock.instant(), qp.attempts(), outcome, message, byNode, List.of(), List.of()));
        if (nominated == null) {
            write(() -> markUnschedulable(pod, conditionReason, message, null));
        } else {
            CompletableFuture<Void> tracked = nominations.track(pod.uid());
            Runnable done = () -> nominations.done(pod.uid(), tracked);
            if (!write(() -> {
                try {
                    markUnschedulable(pod, conditionReason, message, nominated);
                } finally {
                    done.run();
                }
            })) {
                done.run();
            }
        }
        event(pod, "Warning", "FailedScheduling", message);
    }

    /**
     * Completes once the pod's nomination handed to the status writer has been written (or given
     * up), so that a preemptor is never bound before its {@code nominatedNodeName} is seen.
     */
    CompletableFuture<Void> nominationWritten(PodInfo pod) {
        return nominations.written(pod.uid());
    }

    /** The attempt found a node: explained with the three best nodes' scores. */
    void chose(QueuedPod qp, String profile, String host, ScheduleResult r, boolean waiting) {
        ScoreTable t = r.scores();
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < t.nodes().size(); i++) {
            order.add(i);
        }
        order.sort(Comparator.comparingLong(t::total).reversed());
        List<ExplainView.NodeScores> top = new ArrayList<>();
        for (int k = 0; k < Math.min(3, order.size()); k++) {
            int i = order.get(k);
            Map<String, String> byPlugin = new LinkedHashMap<>();
            for (int p = 0; p < t.plugins().size(); p++) {
                byPlugin.put(t.plugins().get(p), t.score(p, i) + "×" + t.weight(p));
            }
            top.add(new ExplainView.NodeScores(t.nodes().get(i), t.total(i), byPlugin));
        }
        explanations.put(new ExplainView(
                qp.pod().key(),
                profile,
                clock.instant(),
                qp.attempts(),
                waiting ? "waiting on permit for " + host : "bound to " + host,
                r.feasibleNodes() + " of " + r.evaluatedNodes() + " evaluated nodes fit",
                Map.of(),
                top,
                List.of()));
    }

    /** The scheduler gave up a plugin call of the pod's attempt: {@code sched:explain} says so at once. */
    void note(QueuedPod qp, String profile, String note) {
        explanations.note(qp.pod().key(), profile, clock.instant(), qp.attempts(), note);
    }

    /**
     * A pending pod the scheduler cannot read: explained, its condition set and a FailedScheduling
     * Event recorded, as for a failed attempt (there will be none until the pod changes).
     */
    void unreadable(Pod pod, String key, String profile, String message) {
        toldWithoutAttempt(pod, key, profile, "cannot be read", message);
    }

    /** A PreEnqueue plugin failed (threw, or answered an error) for a pod it would have gated: told as above. */
    void preEnqueueFailed(PodInfo pod, String profile, String message) {
        toldWithoutAttempt(pod.pod(), pod.key(), profile, "error", message);
    }

    private void toldWithoutAttempt(Pod pod, String key, String profile, String outcome, String message) {
        explanations.put(
                new ExplainView(key, profile, clock.instant(), 0, outcome, message, Map.of(), List.of(), List.of()));
        ClusterBackend b = backend.get();
        if (b == null) {
            return;
        }
        write(() -> {
            try {
                b.markUnschedulable(pod, "SchedulerError", message, null);
                b.recordEvent(pod, "Warning", "FailedScheduling", message);
            } catch (RuntimeException e) {
                LOG.debug("Could not report pod {}: {}", key, e.toString());
            }
        });
    }

    void event(PodInfo pod, String type, String reason, String message) {
        ClusterBackend b = backend.get();
        if (b == null) {
            return;
        }
        write(() -> {
            try {
                b.recordEvent(pod.pod(), type, reason, message);
            } catch (RuntimeException e) {
                LOG.debug("Could not record event {} for pod {}: {}", reason, pod.key(), e.toString());
            }
        });
    }

    /**
     * On the status writer; nothing once the scheduler has stopped (a stuck call returning late).
     *
     * @return whether the write was handed over
     */
    private boolean write(Runnable w) {
        try {
            statusWriter.execute(w);
            return true;
        } catch (RejectedExecutionException e) {
            LOG.debug("Not written, the scheduler has stopped: {}", e.toString());
            return false;
        }
    }

    private void markUnschedulable(PodInfo pod, String reason, String message, String nominated) {
        ClusterBackend b = backend.get();
        if (b == null) {
            return;
        }
        try {
            b.markUnschedulable(pod.pod(), reason, message, nominated);
        } catch (RuntimeException e) {
            LOG.debug("Could not update the condition of pod {}: {}", pod.key(), e.toString());
        }
    }
}
