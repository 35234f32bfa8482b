package io.hotsched.core.scheduler;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.hotsched.api.framework.Code;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;
import io.hotsched.core.cache.ClusterCache;
import io.hotsched.core.metrics.SchedulerMetrics;
import io.hotsched.core.queue.QueuedPod;
import io.hotsched.core.queue.SchedulingQueue;
import io.hotsched.core.runtime.Attempt;
import io.hotsched.core.runtime.CallWatch;
import io.hotsched.core.runtime.FitError;
import io.hotsched.core.runtime.FrameworkImpl;
import io.hotsched.core.runtime.PluginInstance;
import io.hotsched.core.runtime.PreFilterOutcome;
import io.hotsched.core.runtime.ScheduleResult;
import io.hotsched.core.runtime.SchedulingAlgorithm;
import io.hotsched.core.runtime.SchedulingException;
import io.hotsched.core.runtime.Snapshot;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;
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

    private final BindingCycle binding;
    private final FailureHandler failures;
    private final Reporter reporter;
    private final PluginFaults faults;
    private final SchedulerMetrics metrics;
    private final ShadowRunner shadows;

    SchedulingCycle(
            ProfileManager profiles,
            ClusterCache cache,
            SchedulingQueue queue,
            BindingCycle binding,
            FailureHandler failures,
            Reporter reporter,
            PluginFaults faults,
            SchedulerMetrics metrics,
            ShadowRunner shadows) {
        this.profiles = profiles;
        this.cache = cache;
        this.queue = queue;
        this.binding = binding;
        this.failures = failures;
        this.reporter = reporter;
        this.faults = faults;
        this.metrics = metrics;
        this.shadows = shadows;
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
            long searched = System.nanoTime() - searching;
            metrics.algorithmDuration.observeNanos(searched);
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
                failures.unfit(fw, state, qp, fit);
                return;
            }
            if (failure != null) {
                failures.error(qp, attempt, failure.status(), profileName);
                return;
            }
            if (fw.shadowing() && !detached) {
                // on the snapshot the decision was made on, before this attempt changes the cache
                shadows.offer(fw, pod, result, loop.snapshot(), searched);
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
                failures.error(qp, attempt, Status.error(e), profileName);
                return;
            }
            Status st = fw.runReserve(state, assumed, host);
            if (!st.isSuccess()) {
                fw.runUnreserve(state, assumed, host);
                cache.forget(assumed);
                failures.afterAssume(qp, attempt, st, profileName);
                return;
            }
            st = fw.runPermit(state, assumed, host);
            if (!st.isSuccess() && st.code() != Code.WAIT) {
                fw.runUnreserve(state, assumed, host);
                cache.forget(assumed);
                failures.afterAssume(qp, attempt, st, profileName);
                return;
            }
            reporter.chose(qp, profileName, host, result, st.code() == Code.WAIT);
            attempt.leaveLoop();
            handedOff = true;
            binding.start(fw, state, qp, assumed, host);
        } catch (RuntimeException e) {
            LOG.error("Scheduling pod {} failed unexpectedly", pod.key(), e);
            if (attempt.phase() != Attempt.ABANDONED_SEARCH) {
                failures.error(qp, attempt, Status.error(e), profileName);
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
                    faults.settle(fw, state);
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
        failures.error(
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
        if (cur == null || o.state() == null || Attempt.of(o.state()) != cur.attempt()) {
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
        String message = faults.gaveUp(o, now);
        LOG.warn(
                "Plugin {}: {} (pod {}); the scheduler stopped waiting for it and goes on, the call finishes on its own thread",
                plugin,
                message,
                cur.qp().pod().key());
        reporter.note(cur.qp(), cur.fw().profileName(), message);
        if (how == Attempt.ABANDONED_SEARCH) {
            failures.error(
                    cur.qp(),
                    cur.attempt(),
                    Status.error(message).withPlugin(plugin.name()),
                    cur.fw().profileName());
        }
        return cur.loop();
    }

    private static Pod withNode(Pod pod, String node) {
        return new PodBuilder(pod).editOrNewSpec().withNodeName(node).endSpec().build();
    }
}
