package io.hotsched.core.runtime;

import io.hotsched.api.framework.Code;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.PermitPlugin;
import io.hotsched.api.framework.PermitResult;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;
import io.hotsched.core.runtime.GuardedCall.Outcome;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Permit as upstream runs it: a rejection ends it, waits are collected (each at most
 * {@link #MAX_PERMIT_WAIT}) and the pod then waits among the framework's waiting pods, until every
 * waiting plugin allows it, one rejects it, or its wait times out. The waiting pods are the
 * profile's, shared with the frameworks it is rebuilt into; this runner keeps apart the ones that
 * wait on it. A framework whose plugins are leaving is drained: its own waiting pods are rejected
 * (those of the profile's other frameworks are not), and so is any pod that starts waiting after.
 */
final class PermitRunner {

    static final Duration MAX_PERMIT_WAIT = Duration.ofMinutes(15);

    private final PluginSlots slots;
    private final PluginCalls calls;
    private final WaitingPodsImpl waitingPods;
    /** The pods waiting on this framework, by UID: the ones a drain rejects. */
    private final Map<String, WaitingPodImpl> own = new ConcurrentHashMap<>();

    private final ScheduledExecutorService timer;
    private volatile String drainReason;

    PermitRunner(PluginSlots slots, PluginCalls calls, WaitingPodsImpl waitingPods, ScheduledExecutorService timer) {
        this.slots = slots;
        this.calls = calls;
        this.waitingPods = waitingPods;
        this.timer = timer;
    }

    WaitingPodsImpl waitingPods() {
        return waitingPods;
    }

    void drain(String message) {
        drainReason = message;
        for (WaitingPodImpl p : own.values()) {
            p.reject(p.pendingPlugins().stream().findFirst().orElse(""), message);
        }
    }

    Status run(CycleState state, PodInfo pod, String node) {
        Map<String, Duration> waits = new LinkedHashMap<>();
        for (Slot<PermitPlugin> s : slots.permit) {
            Outcome<PermitResult> o = calls.permit(state, s, pod, node);
            if (o.failed()) {
                return o.failure();
            }
            PermitResult r = o.value();
            Status st = r == null ? Status.SUCCESS : r.status();
            if (st.isSuccess()) {
                continue;
            }
            if (st.isRejection()) {
                return Status.of(
                                st.code(),
                                "rejected pod \"" + pod.name() + "\" by permit plugin \"" + s.name() + "\": "
                                        + st.message())
                        .withPlugin(s.name());
            }
            if (st.code() == Code.WAIT) {
                Duration d = r.timeout() == null || r.timeout().isNegative() ? Duration.ZERO : r.timeout();
                waits.put(s.name(), d.compareTo(MAX_PERMIT_WAIT) > 0 ? MAX_PERMIT_WAIT : d);
                continue;
            }
            return Status.error(PluginCall.PERMIT.describe(s.name()) + ": " + st.message(), st.cause())
                    .withPlugin(s.name());
        }
        if (waits.isEmpty()) {
            return Status.SUCCESS;
        }
        WaitingPodImpl w = new WaitingPodImpl(pod, node, waits, timer);
        own.put(pod.uid(), w);
        waitingPods.add(w);
        // added before the check, drained after setting the reason: one of the two sees the other
        String drained = drainReason;
        if (drained != null) {
            w.reject(waits.keySet().iterator().next(), drained);
        }
        return Status.of(Code.WAIT);
    }

    /** Completes when the pod waiting in Permit is allowed, rejected or timed out (at once when it does not wait). */
    CompletableFuture<Status> outcome(PodInfo pod) {
        WaitingPodImpl w = own.get(pod.uid());
        if (w == null) {
            return CompletableFuture.completedFuture(Status.SUCCESS);
        }
        return w.outcome().handle((st, e) -> {
            own.remove(pod.uid(), w);
            waitingPods.remove(w);
            return e == null
                    ? st
                    : Status.error(e instanceof CompletionException ce && ce.getCause() != null ? ce.getCause() : e);
        });
    }
}
