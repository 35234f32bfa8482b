package io.hotsched.core.scheduler;

import io.hotsched.api.framework.PodInfo;
import io.hotsched.core.runtime.ShadowResult;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Observe-only mode's bookkeeping: the pending pods of another scheduler are decided as they come
 * (off the event thread, see {@link Runner}), and each decision waits, by pod UID, until the pod
 * is seen bound (or found unschedulable by the other scheduler); then the node the observer chose is
 * compared with the node bound and the result goes to the figures. A pod bound before its decision finished is compared when it finishes. At
 * most {@link #CAP} pods wait; a pod beyond that is not decided and is counted.
 */
final class Observer {

    private static final Logger LOG = LoggerFactory.getLogger(Observer.class);

    /** How many decided (or deciding) pods may wait to be seen bound. */
    static final int CAP = 1024;

    /**
     * What the observer decided for one pod.
     *
     * @param against the comparison with the node the pod was bound to (null: the other scheduler found none)
     * @param nanos the time the decision took; {@code cpuNanos} its CPU time
     */
    record Decision(Function<String, ShadowResult> against, long nanos, long cpuNanos) {}

    /**
     * Decides a pod on the calling thread; null when it does not now (the profile is being rebuilt,
     * or its PreEnqueue plugins keep the pod out: a scheduling gate), so a later update decides it.
     */
    interface Decider {
        Decision decide(PodInfo pod);
    }

    /** Runs a decision off the caller's thread, or says why not. */
    interface Runner {
        ShadowRunner.Admission run(Runnable decision);
    }

    /** Which scheduler's pods are observed, by which profile, and where the figures go. */
    record Target(String schedulerName, String profile, ShadowFigures figures, Decider decider) {}

    private static final class Entry {
        final PodInfo pod;
        Decision decision;
        /** Whether the other scheduler's outcome was seen: {@code bound}, or null when it found no node. */
        boolean seen;

        String bound;

        Entry(PodInfo pod) {
            this.pod = pod;
        }
    }

    private final Runner runner;
    private final Map<String, Entry> waiting = new ConcurrentHashMap<>();
    private volatile Target target;

    Observer(Runner runner) {
        this.runner = runner;
    }

    /** From now on the pods of {@code t}'s scheduler are observed; null: none are. Waiting pods are forgotten. */
    void observe(Target t) {
        target = t;
        waiting.clear();
    }

    Target target() {
        return target;
    }

    /** Whether pods of {@code schedulerName} are observed (and so never scheduled here). */
    boolean observes(String schedulerName) {
        Target t = target;
        return t != null && t.schedulerName().equals(schedulerName);
    }

    /** How many pods wait to be seen bound. */
    int waiting() {
        return waiting.size();
    }

    /** A pending pod of the observed scheduler: decided once, however often it is updated while pending. */
    void pending(PodInfo pod) {
        Target t = target;
        if (t == null || !t.schedulerName().equals(pod.schedulerName()) || waiting.containsKey(pod.uid())) {
            return;
        }
        if (waiting.size() >= CAP) {
            t.figures().skippedPending.increment();
            return;
        }
        Entry e = new Entry(pod);
        if (waiting.putIfAbsent(pod.uid(), e) != null) {
            return;
        }
        ShadowRunner.Admission a = runner.run(() -> decide(t, e));
        if (a == ShadowRunner.Admission.ACCEPTED) {
            return;
        }
        waiting.remove(pod.uid(), e);
        if (a == ShadowRunner.Admission.OVER_CPU) {
            t.figures().skippedCpu.increment();
        } else if (a == ShadowRunner.Admission.QUEUE_FULL) {
            t.figures().skippedQueue.increment();
        }
    }

    private void decide(Target t, Entry e) {
        Decision d;
        try {
            d = t.decider().decide(e.pod);
        } catch (RuntimeException ex) {
            // the core's part failed, not a plugin call (those are faults in the result)
            LOG.warn("Observing pod {} with profile {} failed", e.pod.key(), t.profile(), ex);
            waiting.remove(e.pod.uid(), e);
            t.figures().failed(e.pod.key() + ": " + ex);
            return;
        }
        if (d == null) {
            waiting.remove(e.pod.uid(), e);
            return;
        }
        boolean seen;
        String bound;
        synchronized (e) {
            e.decision = d;
            seen = e.seen;
            bound = e.bound;
        }
        if (seen) {
            compare(t, e, d, bound);
        }
    }

    /** A pod seen on a node: if it was decided here, the decision is compared with that node. */
    void bound(PodInfo pod) {
        seen(pod.uid(), pod.nodeName());
    }

    /** The observed scheduler found no node for the pod (its PodScheduled condition says Unschedulable). */
    void unschedulable(PodInfo pod) {
        seen(pod.uid(), null);
    }

    private void seen(String uid, String node) {
        Target t = target;
        Entry e = t == null ? null : waiting.get(uid);
        if (e == null) {
            return;
        }
        Decision d;
        synchronized (e) {
            if (e.seen) {
                return;
            }
            e.seen = true;
            e.bound = node;
            d = e.decision;
        }
        if (d != null) {
            compare(t, e, d, node);
        }
    }

    /** The pod was deleted, or ended, unbound: nothing to compare. */
    void forget(String uid) {
        waiting.remove(uid);
    }

    private void compare(Target t, Entry e, Decision d, String bound) {
        if (!waiting.remove(e.pod.uid(), e) || target != t) {
            return;
        }
        ShadowResult r = d.against().apply(bound);
        t.figures().record(r, 0, d.nanos(), d.cpuNanos());
    }
}
