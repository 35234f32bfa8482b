package io.hotsched.core.runtime;

import io.hotsched.api.framework.Code;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.PermitResult;
import io.hotsched.api.framework.PostFilterResult;
import io.hotsched.api.framework.PreFilterResult;
import io.hotsched.api.framework.Status;
import io.hotsched.api.framework.ext.Transformation;
import io.hotsched.core.metrics.Histogram;
import io.hotsched.core.metrics.SchedulerMetrics;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one way a plugin is called, whatever the point or kind of call: the call is marked for the
 * watchdog with its point's time-out, an exception or a late return becomes an error status naming
 * the call as upstream words it, the fault is recorded against the plugin (in the attempt, which
 * counts it once when it ends, or at once outside an attempt), counted in
 * {@code hotsched_plugin_faults_total}, and the call is timed for
 * {@code scheduler_plugin_execution_duration_seconds} when its attempt is sampled.
 *
 * <p>{@link #call} serves the calls made once per pod. Filter and Score call each plugin once per
 * node, where a lambda and a result object per call would show: {@link PluginCalls} makes those
 * calls between {@link #begin} and {@link #end} and hands what happened to {@link #thrown} and
 * {@link #overtime}, which are the same steps {@link #call} takes.
 */
final class GuardedCall {

    private static final Logger LOG = LoggerFactory.getLogger(GuardedCall.class);

    /** A per-pod call's result, or the failure it became (exception or time-out). */
    record Outcome<T>(T value, Status failure) {
        boolean failed() {
            return failure != null;
        }
    }

    private final FrameworkServices services;
    private final SchedulerMetrics metrics;

    GuardedCall(FrameworkServices services) {
        this.services = services;
        this.metrics = services.metrics();
    }

    /**
     * Runs one call of {@code instance}; {@code state} is the attempt's, or null outside an attempt.
     * The watchdog is told of the call, unless it is outside an attempt and not under the queue's
     * lock; a call under the lock is never given up, as nothing could go on past it, and only makes
     * the scheduler not live while it is overdue. The result is the call's value, or the failure
     * when it threw or returned past its time-out.
     */
    <T> Outcome<T> call(CycleState state, PluginInstance instance, PluginCall call, Supplier<T> body) {
        CallWatch.Tracker tracker = state == null && !call.underQueueLock() ? null : tracker();
        long limit = limit(call);
        long t0 = begin(tracker, state, instance, call, limit);
        long timed = state != null && Attempt.timesPlugins(state) ? System.nanoTime() : 0;
        T value;
        try {
            value = body.get();
        } catch (RuntimeException | LinkageError e) {
            return new Outcome<>(null, thrown(state, instance, call, e, timed));
        } finally {
            end(tracker);
        }
        observe(timed, instance.name(), call, codeOf(value));
        Status late = overtime(state, instance, call, t0, limit);
        return late == null ? new Outcome<>(value, null) : new Outcome<>(null, late);
    }

    /** The calling thread's tracker, or null when calls are not watched; look it up once per piece of work. */
    CallWatch.Tracker tracker() {
        CallWatch w = services.watch();
        return w == null ? null : w.tracker();
    }

    /** The time-out of {@code call}'s point, in millis. */
    long limit(PluginCall call) {
        return services.timeouts() == null
                ? Long.MAX_VALUE
                : services.timeouts().millis(call.point());
    }

    /** How long the loop waits for an attempt's extenders, in millis. */
    long extenderWait() {
        return services.timeouts() == null
                ? Long.MAX_VALUE
                : services.timeouts().extenderWait();
    }

    long now() {
        CoarseClock c = services.clock();
        return c == null ? System.currentTimeMillis() : c.now();
    }

    /** Marks the start of a call for the watchdog; returns its start on the coarse clock. */
    long begin(CallWatch.Tracker tracker, CycleState state, PluginInstance instance, PluginCall call, long limit) {
        long t0 = now();
        if (tracker != null) {
            tracker.begin(state, instance, call, t0, limit);
        }
        return t0;
    }

    /** Marks the end of the call begun on {@code tracker}; runs what the watchdog left for its return. */
    static void end(CallWatch.Tracker tracker) {
        if (tracker != null) {
            tracker.end();
        }
    }

    /** The call threw: a fault of the plugin, and an error naming the call. */
    Status thrown(CycleState state, PluginInstance instance, PluginCall call, Throwable e, long timedSince) {
        observe(timedSince, instance.name(), call, Code.ERROR);
        // a LinkageError's message is only a class name: say what went wrong with it
        String message = call.describe(instance.name()) + ": "
                + (e.getMessage() == null
                        ? e.getClass().getName()
                        : e instanceof LinkageError ? e.getClass().getName() + ": " + e.getMessage() : e.getMessage());
        fault(state, instance, call, message, SchedulerMetrics.FAULT_ERROR);
        LOG.debug("Plugin {} failed: {}", instance, message, e);
        return Status.error(new PluginFailure(message, e)).withPlugin(instance.name());
    }

    /**
     * Null when the call that began at {@code t0} returned within {@code limit}; otherwise a fault of
     * the plugin and an error naming the call. A call the watchdog gave up on was counted then.
     */
    Status overtime(CycleState state, PluginInstance instance, PluginCall call, long t0, long limit) {
        long took = now() - t0;
        if (took <= limit) {
            return null;
        }
        String message = call.describe(instance.name()) + ": took " + took + "ms, over the " + limit
                + "ms time-out for " + call.point().label();
        Attempt attempt = state == null ? null : Attempt.of(state);
        if (attempt == null || !attempt.givenUp()) {
            fault(state, instance, call, message, SchedulerMetrics.FAULT_TIMEOUT);
        }
        LOG.warn("Plugin {} {}", instance, message);
        return Status.error(message).withPlugin(instance.name());
    }

    /**
     * A plugin's fault that is not an exception or a time-out (a score out of range): recorded and
     * counted as those are, and returned as an error naming the plugin.
     */
    Status invalid(CycleState state, PluginInstance instance, PluginCall call, String message) {
        fault(state, instance, call, message, SchedulerMetrics.FAULT_ERROR);
        return Status.error(message).withPlugin(instance.name());
    }

    /**
     * What a plugin's status means at the points that take no status of their own (Filter, Reserve,
     * PreBind, the extensions): success, the plugin's rejection naming it, or an error naming the
     * call.
     */
    static Status interpret(PluginCall call, String plugin, Status st) {
        if (st == null || st.isSuccess()) {
            return Status.SUCCESS;
        }
        return st.isRejection() ? st.withPlugin(plugin) : interpretAsError(call, plugin, st);
    }

    /** What a plugin's status means where a rejection is not expected: success, or an error naming the call. */
    static Status interpretAsError(PluginCall call, String plugin, Status st) {
        if (st == null || st.isSuccess()) {
            return Status.SUCCESS;
        }
        return Status.error(call.describe(plugin) + ": " + st.message(), st.cause())
                .withPlugin(plugin);
    }

    private void fault(CycleState state, PluginInstance instance, PluginCall call, String message, String kind) {
        metrics.countFault(instance.name(), call.point().label(), kind);
        if (state != null) {
            AttemptFaults.of(state).record(instance, message);
        } else if (services.faultsOutsideAttempts() != null) {
            services.faultsOutsideAttempts().accept(instance, message);
        }
    }

    /** Counts a sampled call that started at {@code startNanos}; 0: the call was not timed. */
    void observe(long startNanos, String plugin, PluginCall call, Code code) {
        if (startNanos != 0) {
            metrics.pluginExecutionDuration
                    .with(plugin, call.point().label(), SchedulerMetrics.status(code))
                    .observeSince(startNanos);
        }
    }

    /** As {@link #observe}, with the histogram of a successful call looked up once per attempt. */
    void observe(long startNanos, Histogram succeeded, String plugin, PluginCall call, Code code) {
        if (startNanos == 0) {
            return;
        }
        if (code == Code.SUCCESS) {
            succeeded.observeSince(startNanos);
        } else {
            observe(startNanos, plugin, call, code);
        }
    }

    /**
     * For a sampled attempt, each of {@code slots}' histogram of successful calls at {@code call}'s
     * point, looked up once for the attempt instead of by labels per node; null when not sampled.
     */
    Histogram[] succeededHistograms(boolean sampled, List<? extends Slot<?>> slots, PluginCall call) {
        if (!sampled) {
            return null;
        }
        Histogram[] h = new Histogram[slots.size()];
        for (int i = 0; i < h.length; i++) {
            h[i] = metrics.pluginExecutionDuration.with(
                    slots.get(i).name(), call.point().label(), SchedulerMetrics.status(Code.SUCCESS));
        }
        return h;
    }

    /** The status code a call's result carries, for the status label. */
    private static Code codeOf(Object value) {
        Status st = value instanceof Status s
                ? s
                : value instanceof PreFilterResult r
                        ? r.status()
                        : value instanceof PostFilterResult r
                                ? r.status()
                                : value instanceof PermitResult r
                                        ? r.status()
                                        : value instanceof Transformation t ? t.status() : null;
        return st == null ? Code.SUCCESS : st.code();
    }
}
