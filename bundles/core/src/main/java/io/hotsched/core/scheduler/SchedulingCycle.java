package io.hotsched.core.scheduler;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.hotsched.api.cluster.ClusterBackend;
import io.hotsched.api.framework.ClusterException;
import io.hotsched.api.framework.Code;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PostFilterResult;
import io.hotsched.api.framework.Status;
import io.hotsched.core.cache.ClusterCache;
import io.hotsched.core.metrics.SchedulerMetrics;
import io.hotsched.core.queue.QueuedPod;
import io.hotsched.core.queue.SchedulingQueue;
import io.hotsched.core.registry.PluginHealth;
import io.hotsched.core.registry.PluginRegistry;
import io.hotsched.core.runtime.Attempt;
import io.hotsched.core.runtime.CallWatch;
import io.hotsched.core.runtime.Diagnosis;
import io.hotsched.core.runtime.FitError;
import io.hotsched.core.runtime.FrameworkImpl;
import io.hotsched.core.runtime.PluginInstance;
import io.hotsched.core.runtime.PreFilterOutcome;
import io.hotsched.core.runtime.ScheduleResult;
import io.hotsched.core.runtime.SchedulingAlgorithm;
import io.hotsched.core.runtime.SchedulingException;
import io.hotsched.core.runtime.ScoreTable;
import io.hotsched.core.runtime.Snapshot;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pod's way through the scheduler: the scheduling cycle on the scheduling thread (upstream's
 * scheduleOne: snapshot, search, PostFilter on failure, assume, Reserve, Permit), then the binding
 * cycle on a binding thread once Permit allows it (PreBind, Bind, PostBind). The framework pinned at the
 * start serves the pod to the end, so Reserve and Unreserve reach the same plugin instance.
 */
final class SchedulingCycle {

    private static final Logger LOG = LoggerFactory.getLogger(SchedulingCycle.class);
    static final String PAUSED_PREFIX = "profile/";

    private final ProfileManager profiles;
    private final ClusterCache cache;
    private final SchedulingQueue queue;
    private final AtomicReference<InProgress> inProgress = new AtomicReference<>();
    /** The right to change the cache: held by the loop's attempt, or by a detached attempt committing. */
    private final Semaphore commitGate = new Semaphore(1);

    private final ExecutorService binders;
    private final ExecutorService statusWriter;
    private final Supplier<ClusterBackend> backend;
    private final PluginRegistry registry;
    private final PluginHealth health;
    private final Explanations explanations;
    private final Clock clock;
    private final java.util.function.BooleanSupplier leading;
    private final SchedulerMetrics metrics;

    SchedulingCycle(
            ProfileManager profiles,
            ClusterCache cache,
            SchedulingQueue queue,
            ExecutorService binders,
            ExecutorService statusWriter,
            Supplier<ClusterBackend> backend,
            PluginRegistry registry,
            PluginHealth health,
            Explanations explanations,
            Clock clock,
            java.util.function.BooleanSupplier leading,
            SchedulerMetrics metrics) {
        this.metrics = metrics;
        this.profiles = profiles;
        this.cache = cache;
        this.queue = queue;
        this.binders = binders;
        this.statusWriter = statusWriter;
        this.backend = backend;
        this.registry = registry;
        this.health = health;
        this.explanations = explanations;
        this.clock = clock;
        this.leading = leading;
    }

    /** What one scheduling loop thread owns: its snapshot and its node rotation. */
    record Loop(Thread thread, Snapshot snapshot, SchedulingAlgorithm algorithm) {}

    /** The attempt the loop is working on, for the watchdog. */
    private record InProgress(Attempt attempt, QueuedPod qp, FrameworkImpl fw, Thread loop) {}

    void scheduleOne(QueuedPod qp, Loop loop) {
        PodInfo pod = qp.pod();
        if (cache.contains(pod.uid())) {
            // bound or assumed meanwhile (a duplicate event): nothing to do
            queue.done(qp);
            return;
        }
        String profileName = pod.schedulerName();
        FrameworkImpl fw = profiles.pin(profileName);
        if (fw == null) {
            ProfileState ps = profiles.profile(profileName);
            if (ps == null) {
                queue.done(qp);
                return;
            }
            queue.parkWhilePaused(qp, PAUSED_PREFIX + profileName, "profile " + profileName + " " + ps.describe());
            return;
        }
        CycleState first = new CycleState();
        Attempt attempt = new Attempt();
        first.write(Attempt.KEY, attempt);
        // one attempt at a time changes the cache; a detached one waits here to commit
        commitGate.acquireUninterruptibly();
        attempt.holdCommit();
        InProgress mine = new InProgress(attempt, qp, fw, loop.thread());
        inProgress.set(mine);
        CycleState state = first;
        boolean handedOff = false;
        try {
            cache.updateSnapshot(loop.snapshot());
            ScheduleResult result = null;
            FitError fit = null;
            SchedulingException failure = null;
            long searching = System.nanoTime();
            try {
                result = loop.algorithm().schedule(fw, state, pod, loop.snapshot());
            } catch (FitError fe) {
                fit = fe;
            } catch (SchedulingException se) {
                failure = se;
            }
            metrics.algorithmDuration.observeSince(searching);
            // from here this thread owns the pod to the end, even if the loop gives up on it
            boolean detached = false;
            if (!attempt.commit()) {
                if (attempt.phase() != Attempt.DETACHED) {
                    // given up while searching: the watchdog has requeued the pod
                    return;
                }
                // the loop went on while the extenders answered: wait for the commit permit, see the cache as it is now
                detached = true;
                commitGate.acquireUninterruptibly();
                attempt.holdCommit();
                attempt.commitDetached();
                // holding the permit, it is the attempt the loop waits for: the watchdog watches it again
                mine = new InProgress(attempt, qp, fw, Thread.currentThread());
                inProgress.set(mine);
                cache.updateSnapshot(loop.snapshot());
            }
            if (fit != null) {
                handleFitError(fw, state, qp, fit);
                return;
            }
            if (failure != null) {
                handleError(qp, attempt, failure.status(), profileName);
                return;
            }
            if (detached) {
                CycleState rechecked = recheck(fw, state, result, loop, qp, profileName);
                if (rechecked == null) {
                    return;
                }
                state = rechecked;
            }
            String host = result.suggestedHost();
            PodInfo assumed = PodInfo.of(withNode(result.pod().pod(), host));
            try {
                cache.assume(assumed, host);
            } catch (IllegalStateException e) {
                handleError(qp, attempt, Status.error(e), profileName);
                return;
            }
            Status st = fw.runReserve(state, assumed, host);
            if (!st.isSuccess()) {
                fw.runUnreserve(state, assumed, host);
                cache.forget(assumed);
                failAfterAssume(qp, attempt, st, profileName);
                return;
            }
            st = fw.runPermit(state, assumed, host);
            if (!st.isSuccess() && st.code() != Code.WAIT) {
                fw.runUnreserve(state, assumed, host);
                cache.forget(assumed);
                failAfterAssume(qp, attempt, st, profileName);
                return;
            }
            explainSuccess(qp, profileName, host, result, st.code() == Code.WAIT);
            attempt.leaveLoop();
            handedOff = true;
            CycleState bindingState = state;
            fw.permitOutcome(assumed)
                    .thenAcceptAsync(permit -> bindingCycle(fw, bindingState, qp, assumed, host, permit), binders);
        } catch (RuntimeException e) {
            LOG.error("Scheduling pod {} failed unexpectedly", pod.key(), e);
            if (attempt.phase() != Attempt.ABANDONED_SEARCH) {
                handleError(qp, attempt, Status.error(e), profileName);
            }
        } finally {
            inProgress.compareAndSet(mine, null);
            if (attempt.releaseCommit()) {
                commitGate.release();
            }
            if (!handedOff) {
                attempt.leaveLoop();
                if (!attempt.givenUp()) {
                    // a given-up attempt's fault was counted when it was given up
                    settle(fw, state);
                }
                fw.unpin();
            }
        }
    }

    /**
     * A detached attempt chose its node on a snapshot that other attempts have changed since:
     * PreFilter runs again on the cache as it is now, and Filter on the chosen node. Returns the
     * cycle state to go on with, or null when the node no longer fits (the pod is retried).
     */
    private CycleState recheck(
            FrameworkImpl fw, CycleState searched, ScheduleResult result, Loop loop, QueuedPod qp, String profile) {
        CycleState fresh = FrameworkImpl.freshState(searched);
        String host = result.suggestedHost();
        PreFilterOutcome pre = fw.runPreFilter(fresh, qp.pod(), loop.snapshot());
        Status st = pre.status();
        NodeInfo node = loop.snapshot().get(host);
        if (st.isSuccess() && node == null) {
            st = Status.unschedulable("node " + host + " is gone");
        }
        if (st.isSuccess()) {
            st = fw.runFilterPluginsWithNominatedPods(fresh, pre.pod(), node);
        }
        if (st.isSuccess()) {
            return fresh;
        }
        handleError(
                qp,
                Attempt.of(searched),
                Status.error("node " + host + ", chosen while the extenders answered, no longer fits: " + st.message()),
                profile);
        return null;
    }

    /**
     * The watchdog saw the loop wait longer than the extender wait for an attempt's extenders:
     * the attempt is detached (its thread goes on when they answer, and commits after the loop's
     * attempt of the moment), the commit permit passes to the loop, and the caller must start a
     * new loop thread.
     *
     * @return the thread that was the loop, or null when nothing was detached
     */
    Thread detach(CallWatch.Overdue o) {
        InProgress cur = inProgress.get();
        if (cur == null
                || Attempt.of(o.state()) != cur.attempt()
                || !cur.attempt().detach()) {
            return null;
        }
        inProgress.compareAndSet(cur, null);
        if (cur.attempt().releaseCommit()) {
            commitGate.release();
        }
        LOG.debug(
                "Pod {} waits for extender {} longer than the loop waits; it goes on when the extender answers",
                cur.qp().pod().key(),
                o.extender());
        return cur.loop();
    }

    /**
     * The watchdog saw a plugin call still running past its time-out. If the call serves the
     * attempt the loop is waiting for, the attempt is given up: the fault counts against the
     * plugin now (so a plugin that never returns is still quarantined), a pod still searching is
     * requeued with the error, and the caller must start a new loop thread. The stuck thread
     * finishes on its own when the call returns; it is no longer the loop.
     *
     * @return the thread that was the loop, or null when nothing was given up
     */
    Thread giveUp(CallWatch.Overdue o, long now) {
        InProgress cur = inProgress.get();
        if (cur == null || Attempt.of(o.state()) != cur.attempt()) {
            return null;
        }
        int how = cur.attempt().giveUp();
        if (how < 0) {
            return null;
        }
        inProgress.compareAndSet(cur, null);
        if (cur.attempt().releaseCommit()) {
            // the stuck thread finishes without it: what is left to it (Unreserve, forget) is safe alongside the loop
            commitGate.release();
        }
        PluginInstance plugin = o.instance();
        String message = FrameworkImpl.describeCall(o.point(), plugin.name()) + ": still running after "
                + (now - o.startedAt()) + "ms, over the " + o.limit() + "ms time-out for " + o.point();
        LOG.warn(
                "Plugin {}: {} (pod {}); the scheduler stopped waiting for it and goes on, the call finishes on its own thread",
                plugin,
                message,
                cur.qp().pod().key());
        if (plugin.registration() != null && health.failed(plugin.registration(), message)) {
            LOG.error(
                    "Plugin {} quarantined after {} failed attempts in a row; last: {}. Profiles using it pause until "
                            + "its bundle is updated or 'sched:release {}' is run.",
                    plugin,
                    health.threshold(),
                    message,
                    plugin.name());
            registry.changed(plugin.name());
        }
        if (how == Attempt.ABANDONED_SEARCH) {
            handleError(
                    cur.qp(),
                    cur.attempt(),
                    Status.error(message).withPlugin(plugin.name()),
                    cur.fw().profileName());
        }
        return cur.loop();
    }

    private void bindingCycle(
            FrameworkImpl fw, CycleState state, QueuedPod qp, PodInfo assumed, String host, Status permit) {
        try {
            Status st = permit;
            if (st.isSuccess()) {
                st = fw.runPreBind(state, assumed, host);
            }
            if (st.isSuccess() && !leading.getAsBoolean()) {
                st = Status.error("leadership lost before binding; the new leader schedules this pod");
            }
            if (st.isSuccess()) {
                st = bind(fw, state, assumed, host);
            }
            if (!st.isSuccess()) {
                fw.runUnreserve(state, assumed, host);
                cache.forget(assumed);
                if (st.cause() instanceof ClusterException ce && ce.code() == 404) {
                    LOG.info("Pod {} was deleted while binding; forgotten", assumed.key());
                    queue.done(qp);
                    return;
                }
                failAfterAssume(qp, Attempt.of(state), st, fw.profileName());
                return;
            }
            cache.finishBinding(assumed);
            queue.nominator().delete(assumed.uid());
            queue.done(qp);
            attemptDone(state, SchedulerMetrics.SCHEDULED, fw.profileName());
            record(assumed, "Normal", "Scheduled", "Successfully assigned " + assumed.key() + " to " + host);
            fw.runPostBind(state, assumed, host);
        } catch (RuntimeException e) {
            LOG.error("Binding pod {} failed unexpectedly", assumed.key(), e);
            fw.runUnreserve(state, assumed, host);
            cache.forget(assumed);
            failAfterAssume(qp, Attempt.of(state), Status.error(e), fw.profileName());
        } finally {
            settle(fw, state);
            fw.unpin();
        }
    }

    private Status bind(FrameworkImpl fw, CycleState state, PodInfo pod, String host) {
        // a binder extender binds instead of the Bind plugins, as upstream
        Status byExtender = fw.extenders().bind(pod, host);
        if (byExtender != null) {
            return byExtender;
        }
        Status st = fw.runBind(state, pod, host);
        if (st.isSkip()) {
            return Status.error("no Bind plugin bound pod " + pod.key());
        }
        return st;
    }

    private void handleFitError(FrameworkImpl fw, CycleState state, QueuedPod qp, FitError fe) {
        PodInfo pod = qp.pod();
        Diagnosis d = fe.diagnosis();
        String nominated = null;
        PostFilterResult pf = fw.runPostFilter(state, fe.pod(), d.toNodeToStatus());
        if (pf.nominatedNodeName() != null
                && (pf.status().isSuccess() || pf.nominatedNodeName().isEmpty())) {
            nominated = pf.nominatedNodeName();
            // an empty name forgets the nomination
            queue.nominator().nominate(pod, nominated);
        }
        if (pf.status().code() == Code.ERROR) {
            d.setPostFilterMsg("Error running PostFilter plugin " + pf.status().plugin() + ": "
                    + pf.status().message());
        } else if (!pf.status().isSuccess() && !pf.status().message().isEmpty()) {
            d.setPostFilterMsg(pf.status().message());
        }
        String message = fe.getMessage();
        attemptDone(state, SchedulerMetrics.UNSCHEDULABLE, fw.profileName());
        explanations.put(new Explanation(
                pod.key(),
                fw.profileName(),
                clock.instant(),
                qp.attempts(),
                "unschedulable",
                message,
                rejections(d),
                List.of()));
        queue.addUnschedulable(qp, d.unschedulablePlugins(), message);
        String nomination = nominated;
        statusWriter.execute(() -> markUnschedulable(pod, "Unschedulable", message, nomination));
        record(pod, "Warning", "FailedScheduling", message);
    }

    private void handleError(QueuedPod qp, Attempt attempt, Status st, String profile) {
        PodInfo pod = qp.pod();
        String message = st.message();
        attemptDone(attempt, SchedulerMetrics.ERROR, profile);
        explanations.put(new Explanation(
                pod.key(), profile, clock.instant(), qp.attempts(), "error", message, Map.of(), List.of()));
        queue.addBackoff(qp, message);
        statusWriter.execute(() -> markUnschedulable(pod, "SchedulerError", message, null));
        record(pod, "Warning", "FailedScheduling", message);
    }

    private void failAfterAssume(QueuedPod qp, Attempt attempt, Status st, String profile) {
        if (st.isRejection()) {
            PodInfo pod = qp.pod();
            attemptDone(attempt, SchedulerMetrics.UNSCHEDULABLE, profile);
            explanations.put(new Explanation(
                    pod.key(),
                    profile,
                    clock.instant(),
                    qp.attempts(),
                    "unschedulable",
                    st.message(),
                    Map.of(),
                    List.of()));
            queue.addUnschedulable(qp, st.plugin() == null ? Set.of() : Set.of(st.plugin()), st.message());
            statusWriter.execute(() -> markUnschedulable(pod, "Unschedulable", st.message(), null));
            record(pod, "Warning", "FailedScheduling", st.message());
        } else {
            handleError(qp, attempt, st, profile);
        }
    }

    /** scheduler_scheduling_attempt_duration_seconds: from the pod leaving the queue to its result. */
    private void attemptDone(Attempt attempt, String result, String profile) {
        if (attempt != null) {
            metrics.attemptDuration.with(result, profile).observeSince(attempt.startNanos);
        }
    }

    private void attemptDone(CycleState state, String result, String profile) {
        attemptDone(Attempt.of(state), result, profile);
    }

    /** Counts each faulty plugin once for the attempt; quarantines after too many in a row. */
    private void settle(FrameworkImpl fw, CycleState state) {
        Map<PluginInstance, String> faults = fw.faults(state);
        for (PluginInstance i : fw.instances()) {
            if (i.registration() == null) {
                continue;
            }
            String fault = faults.get(i);
            if (fault == null) {
                health.succeeded(i.registration());
            } else if (health.failed(i.registration(), fault)) {
                LOG.error(
                        "Plugin {} quarantined after {} failed attempts in a row; last: {}. Profiles using it pause until "
                                + "its bundle is updated or 'sched:release {}' is run.",
                        i,
                        health.threshold(),
                        fault,
                        i.name());
                registry.changed(i.name());
            }
        }
    }

    private void explainSuccess(QueuedPod qp, String profile, String host, ScheduleResult r, boolean waiting) {
        ScoreTable t = r.scores();
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < t.nodes().size(); i++) {
            order.add(i);
        }
        order.sort(Comparator.comparingLong(t::total).reversed());
        List<Explanation.NodeScoreLine> top = new ArrayList<>();
        for (int k = 0; k < Math.min(3, order.size()); k++) {
            int i = order.get(k);
            Map<String, String> byPlugin = new LinkedHashMap<>();
            for (int p = 0; p < t.plugins().size(); p++) {
                byPlugin.put(t.plugins().get(p), t.score(p, i) + "×" + t.weight(p));
            }
            top.add(new Explanation.NodeScoreLine(t.nodes().get(i), t.total(i), byPlugin));
        }
        explanations.put(new Explanation(
                qp.pod().key(),
                profile,
                clock.instant(),
                qp.attempts(),
                waiting ? "waiting on permit for " + host : "bound to " + host,
                r.feasibleNodes() + " of " + r.evaluatedNodes() + " evaluated nodes fit",
                Map.of(),
                top));
    }

    private static Map<String, String> rejections(Diagnosis d) {
        Map<String, String> out = new TreeMap<>();
        d.nodeStatuses()
                .forEach((node, st) -> out.put(node, (st.plugin() == null ? "" : st.plugin() + ": ") + st.message()));
        return out;
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

    private void record(PodInfo pod, String type, String reason, String message) {
        ClusterBackend b = backend.get();
        if (b == null) {
            return;
        }
        statusWriter.execute(() -> {
            try {
                b.recordEvent(pod.pod(), type, reason, message);
            } catch (RuntimeException e) {
                LOG.debug("Could not record event {} for pod {}: {}", reason, pod.key(), e.toString());
            }
        });
    }

    private static Pod withNode(Pod pod, String node) {
        return new PodBuilder(pod).editOrNewSpec().withNodeName(node).endSpec().build();
    }
}
