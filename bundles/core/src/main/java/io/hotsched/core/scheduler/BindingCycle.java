package io.hotsched.core.scheduler;

import io.hotsched.api.framework.ClusterException;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;
import io.hotsched.core.cache.ClusterCache;
import io.hotsched.core.metrics.SchedulerMetrics;
import io.hotsched.core.queue.QueuedPod;
import io.hotsched.core.queue.SchedulingQueue;
import io.hotsched.core.runtime.Attempt;
import io.hotsched.core.runtime.CallWatch;
import io.hotsched.core.runtime.FrameworkImpl;
import io.hotsched.core.runtime.PluginInstance;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The binding cycle of a pod Permit allowed, on a binding slot: PreBind, Bind (a binder extender
 * instead of the Bind plugins, as upstream), then the pod is bound in the cache, and PostBind. A
 * failure unreserves and forgets the pod and sends it back to the queue.
 *
 * <p>A PreBind plugin that returns {@link io.hotsched.api.framework.Code#WAIT} has started work
 * that others finish (VolumeBinding waits for the PersistentVolume controller): the cycle gives its
 * slot back and asks that plugin again {@value #PRE_BIND_RECHECK_MILLIS} ms later, on a slot,
 * until it answers otherwise; no thread is held while it waits.
 *
 * <p>A PreBind, Bind or PostBind call past its time-out is given up by the watchdog ({@link
 * #giveUp}), as upstream cancels the binding's context: its slot is given back, so that many hanging
 * calls do not stop all binding, and a pod not yet bound fails at once. Whoever decides first, the
 * binding thread (bound) or the watchdog (failed), decides for the pod: it is never both.
 */
final class BindingCycle {

    private static final Logger LOG = LoggerFactory.getLogger(BindingCycle.class);
    private static final int OPEN = 0;
    private static final int BOUND = 1;
    private static final int FAILED = 2;
    /** How long a waiting PreBind plugin is left before it is asked again (upstream polls once a second). */
    static final long PRE_BIND_RECHECK_MILLIS = 1000;
    /** The longest a binding waits for the pod's nomination to be written. */
    static final long NOMINATION_WAIT_SECONDS = 30;

    /** One pod's binding cycle in progress. */
    private record Binding(
            FrameworkImpl fw, CycleState state, QueuedPod qp, PodInfo assumed, String host, AtomicInteger outcome) {
        boolean decide(int how) {
            return outcome.compareAndSet(OPEN, how);
        }
    }

    private final ClusterCache cache;
    private final SchedulingQueue queue;
    private final BindingSlots slots;
    private final FailureHandler failures;
    private final Reporter reporter;
    private final PluginFaults faults;
    private final Leadership leadership;
    private final ScheduledExecutorService timer;
    private final Map<Attempt, Binding> inProgress = new ConcurrentHashMap<>();

    BindingCycle(
            ClusterCache cache,
            SchedulingQueue queue,
            BindingSlots slots,
            FailureHandler failures,
            Reporter reporter,
            PluginFaults faults,
            Leadership leadership,
            ScheduledExecutorService timer) {
        this.cache = cache;
        this.queue = queue;
        this.slots = slots;
        this.failures = failures;
        this.reporter = reporter;
        this.faults = faults;
        this.leadership = leadership;
        this.timer = timer;
    }

    /**
     * Binds the assumed pod on a binding slot once Permit has decided and a nomination of the pod
     * still being written has landed (a preemptor retried at once from backoff); a waiting pod holds
     * no slot. A nomination write that hangs is waited on for {@value #NOMINATION_WAIT_SECONDS} s at
     * most: past that the API is faulty anyway, and the pod is better bound than held.
     */
    void start(FrameworkImpl fw, CycleState state, QueuedPod qp, PodInfo assumed, String host) {
        CompletableFuture<Void> nominated =
                reporter.nominationWritten(assumed).completeOnTimeout(null, NOMINATION_WAIT_SECONDS, TimeUnit.SECONDS);
        fw.permitOutcome(assumed)
                .thenCombine(nominated, (permit, ignored) -> permit)
                .thenAcceptAsync(permit -> run(fw, state, qp, assumed, host, permit), slots);
    }

    private void run(FrameworkImpl fw, CycleState state, QueuedPod qp, PodInfo assumed, String host, Status permit) {
        Attempt attempt = Attempt.of(state);
        Binding b = new Binding(fw, state, qp, assumed, host, new AtomicInteger());
        attempt.startBinding();
        inProgress.put(attempt, b);
        step(b, 0, permit);
    }

    /**
     * The cycle from the PreBind plugin at {@code from} on; it ends here unless that plugin or a
     * later one waits, in which case the next step is scheduled and the cycle stays open.
     */
    private void step(Binding b, int from, Status permit) {
        Attempt attempt = Attempt.of(b.state());
        FrameworkImpl fw = b.fw();
        PodInfo assumed = b.assumed();
        boolean waiting = false;
        try {
            Status st = permit;
            if (st.isSuccess()) {
                FrameworkImpl.PreBindOutcome o = fw.runPreBind(b.state(), assumed, b.host(), from);
                if (o.waiting() && !attempt.givenUp()) {
                    waiting = true;
                    timer.schedule(
                            () -> slots.execute(() -> step(b, o.waitingAt(), Status.SUCCESS)),
                            PRE_BIND_RECHECK_MILLIS,
                            TimeUnit.MILLISECONDS);
                    return;
                }
                st = o.status();
            }
            if (st.isSuccess() && !leadership.leading()) {
                st = Status.error("leadership lost before binding; the new leader schedules this pod");
            }
            if (st.isSuccess() && !attempt.givenUp()) {
                st = bind(fw, b.state(), assumed, b.host());
            }
            if (!st.isSuccess()) {
                if (b.decide(FAILED)) {
                    fail(b, st);
                }
                return;
            }
            if (!b.decide(BOUND)) {
                return;
            }
            cache.finishBinding(assumed);
            queue.nominator().delete(assumed.uid());
            queue.done(b.qp());
            reporter.attemptDone(attempt, SchedulerMetrics.SCHEDULED, fw.profileName());
            reporter.event(
                    assumed, "Normal", "Scheduled", "Successfully assigned " + assumed.key() + " to " + b.host());
            fw.runPostBind(b.state(), assumed, b.host());
        } catch (RuntimeException e) {
            LOG.error("Binding pod {} failed unexpectedly", assumed.key(), e);
            if (b.decide(FAILED)) {
                fail(b, Status.error(e));
            }
        } finally {
            if (!waiting) {
                inProgress.remove(attempt);
                if (attempt.endBinding()) {
                    // a binding given up on had its fault counted then
                    faults.settle(fw, b.state());
                }
                fw.unpin();
            }
        }
    }

    private static Status bind(FrameworkImpl fw, CycleState state, PodInfo pod, String host) {
        Status byExtender = fw.extenders().bind(pod, host);
        if (byExtender != null) {
            return byExtender;
        }
        Status st = fw.runBind(state, pod, host);
        return st.isSkip() ? Status.error("no Bind plugin bound pod " + pod.key()) : st;
    }

    private void fail(Binding b, Status st) {
        b.fw().runUnreserve(b.state(), b.assumed(), b.host());
        cache.forget(b.assumed());
        if (st.cause() instanceof ClusterException ce && ce.code() == 404) {
            LOG.info("Pod {} was deleted while binding; forgotten", b.assumed().key());
            queue.done(b.qp());
            return;
        }
        failures.afterAssume(b.qp(), Attempt.of(b.state()), st, b.fw().profileName());
    }

    /**
     * The watchdog saw a binding cycle's plugin call still running past its time-out: the binding
     * is given up, the fault counted now, and a pod not bound yet fails (on another slot: Unreserve
     * is a plugin call too). The watchdog gives the stuck call's slot back, as for any call given up.
     *
     * @return false when the call serves no binding in progress, or it was given up already
     */
    boolean giveUp(CallWatch.Overdue o, long now) {
        Attempt attempt = Attempt.of(o.state());
        Binding b = attempt == null ? null : inProgress.get(attempt);
        if (b == null || attempt.giveUp() != Attempt.ABANDONED_BINDING) {
            return false;
        }
        PluginInstance plugin = o.instance();
        String message = faults.gaveUp(o, now);
        LOG.warn(
                "Plugin {}: {} (pod {}); the binding is given up, the call finishes on its own thread",
                plugin,
                message,
                b.assumed().key());
        reporter.note(b.qp(), b.fw().profileName(), message);
        if (b.decide(FAILED)) {
            slots.execute(() -> fail(b, Status.error(message).withPlugin(plugin.name())));
        }
        return true;
    }
}
