package io.hotsched.core.queue;

import io.hotsched.api.framework.ActionType;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.QueuedPodInfo;
import io.hotsched.api.framework.Status;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The scheduling queue, as upstream's: an active queue ordered by the QueueSort plugin, a backoff
 * queue (1 s doubling to 10 s by default), the unschedulable pods waiting for a cluster event that
 * may help them (or for the periodic flush after 5 minutes), and pods gated by PreEnqueue.
 *
 * <p>Pods back off in one of two queues, as upstream's: those found unschedulable, and those whose
 * attempt failed with an error. With {@link #setPopFromBackoffQ pop from backoffQ} (upstream's
 * SchedulerPopFromBackoffQ; on by default, as upstream's), backoff ends on whole-second windows
 * ({@link BackoffTimes}), pods of one window are ordered as the active queue orders them, and when
 * the active queue is empty the loop takes the first unschedulable pod still backing off instead of
 * idling; pods that failed with an error always wait their backoff out.
 *
 * <p>Thread-safe; {@link #pop()} blocks.
 */
public final class SchedulingQueue {

    /** Upstream's podMaxInUnschedulablePodsDuration. */
    public static final Duration MAX_UNSCHEDULABLE = Duration.ofMinutes(5);

    private final Object lock = new Object();
    private final Clock clock;
    private final Function<PodInfo, Status> preEnqueue;
    private final BackoffTimes backoffTimes;

    private final Map<String, QueuedPod> pods = new HashMap<>();
    private PriorityQueue<QueuedPod> active;
    private PriorityQueue<QueuedPod> backoff;
    private final PriorityQueue<QueuedPod> errorBackoff = QueueOrder.errorBackoff();
    private final Map<String, QueuedPod> unschedulable = new LinkedHashMap<>();
    private final Map<String, QueuedPod> gated = new LinkedHashMap<>();
    private final Map<String, QueuedPod> inFlight = new HashMap<>();
    private final Nominator nominator = new Nominator();
    private long schedulingCycle;
    private long moveRequestCycle = -1;
    private boolean closed;

    /**
     * @param preEnqueue runs the pod's profile's PreEnqueue plugins; a non-success status gates it,
     *     null means they could not run (the profile is paused) and are run again when the pod is popped
     */
    public SchedulingQueue(
            Clock clock, Duration initialBackoff, Duration maxBackoff, Function<PodInfo, Status> preEnqueue) {
        this.clock = clock;
        this.backoffTimes = new BackoffTimes(initialBackoff, maxBackoff, true);
        this.preEnqueue = preEnqueue;
        this.active = QueueOrder.active(QueueOrder.FIFO);
        this.backoff = QueueOrder.backoff(active, true);
    }

    /**
     * Switches upstream's SchedulerPopFromBackoffQ: when on, an empty active queue hands out the
     * first unschedulable pod still backing off, and backoff ends on whole seconds.
     */
    public void setPopFromBackoffQ(boolean enabled) {
        synchronized (lock) {
            if (enabled == backoffTimes.windows()) {
                return;
            }
            backoffTimes.windows(enabled);
            backoff = QueueOrder.refilled(QueueOrder.backoff(active, enabled), backoff);
            lock.notifyAll();
        }
    }

    /** Replaces the order of the active queue (the QueueSort plugin changed). */
    public void setLess(BiPredicate<QueuedPodInfo, QueuedPodInfo> newLess) {
        synchronized (lock) {
            active = QueueOrder.refilled(QueueOrder.active(newLess), active);
            backoff = QueueOrder.refilled(QueueOrder.backoff(active, backoffTimes.windows()), backoff);
        }
    }

    public void setBackoff(Duration initial, Duration max) {
        backoffTimes.set(initial, max);
    }

    public Nominator nominator() {
        return nominator;
    }

    // ---- pods come and go -------------------------------------------------------------------------

    /** A new pending pod for one of our profiles; nothing once the queue is closed. */
    public void add(PodInfo pod) {
        synchronized (lock) {
            if (closed || pods.containsKey(pod.uid())) {
                return;
            }
            QueuedPod qp = new QueuedPod(pod, clock.instant());
            pods.put(pod.uid(), qp);
            enqueueOrGate(qp);
        }
    }

    /** The user changed a pending pod: it gets a fresh chance (gates are checked again). */
    public void update(PodInfo pod) {
        synchronized (lock) {
            if (closed) {
                return;
            }
            QueuedPod qp = pods.get(pod.uid());
            if (qp == null) {
                add(pod);
                return;
            }
            qp.pod = pod;
            if (inFlight.containsKey(pod.uid())) {
                return;
            }
            if (!active.remove(qp)) {
                removeWaiting(qp);
            }
            enqueueOrGate(qp);
        }
    }

    public void delete(PodInfo pod) {
        synchronized (lock) {
            QueuedPod qp = pods.remove(pod.uid());
            nominator.delete(pod.uid());
            if (qp == null) {
                return;
            }
            active.remove(qp);
            removeWaiting(qp);
            inFlight.remove(pod.uid());
        }
    }

    /** Takes the pod out of the unschedulable, gated and backoff pods; whether it was among them. */
    private boolean removeWaiting(QueuedPod qp) {
        String uid = qp.pod.uid();
        return unschedulable.remove(uid) != null
                | gated.remove(uid) != null
                | backoff.remove(qp)
                | errorBackoff.remove(qp);
    }

    private boolean gatedNow(QueuedPod qp) {
        Status st = preEnqueue.apply(qp.pod);
        qp.gatesChecked = st != null;
        if (st != null && !st.isSuccess()) {
            qp.gatedBy = st.plugin() == null ? st.message() : st.plugin() + ": " + st.message();
            // the gating plugin's events and hints decide when the gate is worth checking again
            qp.unschedulablePlugins = st.plugin() == null ? Set.of() : Set.of(st.plugin());
            gated.put(qp.pod.uid(), qp);
            return true;
        }
        return false;
    }

    private void enqueueOrGate(QueuedPod qp) {
        if (gatedNow(qp)) {
            return;
        }
        qp.gatedBy = null;
        qp.timestamp = clock.instant();
        active.add(qp);
        lock.notifyAll();
    }

    // ---- the scheduling loop's side ----------------------------------------------------------------

    /** The next pod to schedule; blocks until there is one. Null once the queue is closed. */
    public QueuedPod pop() throws InterruptedException {
        synchronized (lock) {
            QueuedPod qp = null;
            while (qp == null) {
                while (active.isEmpty() && !(backoffTimes.windows() && !backoff.isEmpty()) && !closed) {
                    lock.wait();
                }
                if (closed) {
                    return null;
                }
                // an idle loop spends the time on the pod that would be retried first anyway
                qp = active.isEmpty() ? backoff.poll() : active.poll();
                // a pod that came in while its profile was paused passed no PreEnqueue plugin yet
                if (!qp.gatesChecked && gatedNow(qp)) {
                    qp = null;
                }
            }
            qp.attempts++;
            if (qp.initialAttempt == null) {
                qp.initialAttempt = clock.instant();
            }
            qp.cycle = ++schedulingCycle;
            inFlight.put(qp.pod.uid(), qp);
            return qp;
        }
    }

    /** The attempt of {@code qp} ended and the pod is handled (bound, or no longer ours). */
    public void done(QueuedPod qp) {
        synchronized (lock) {
            inFlight.remove(qp.pod.uid());
            pods.remove(qp.pod.uid());
        }
    }

    /**
     * The attempt found no node: the pod waits for an event from one of {@code plugins}. When a
     * move request came while it was being scheduled, it goes to backoff instead (the event may
     * already have helped).
     */
    public void addUnschedulable(QueuedPod qp, Set<String> plugins, String failure) {
        synchronized (lock) {
            inFlight.remove(qp.pod.uid());
            if (!pods.containsKey(qp.pod.uid())) {
                return;
            }
            qp.unschedulablePlugins = Set.copyOf(plugins);
            qp.lastFailure = failure;
            qp.timestamp = clock.instant();
            if (moveRequestCycle >= qp.cycle || qp.activateAfterAttempt) {
                qp.activateAfterAttempt = false;
                requeue(qp);
            } else {
                qp.unschedulableSince = clock.instant();
                unschedulable.put(qp.pod.uid(), qp);
            }
        }
    }

    /**
     * The pod's profile is paused (a plugin bundle is being replaced, say), so it was popped but
     * not attempted. It waits with the unschedulable pods for the profile, then goes straight back
     * to the active queue in its old place: its attempt is not counted and it gets no backoff.
     * A swap pauses a profile for a fraction of a second, in which the loop pops every waiting pod
     * of it; with a backoff each, the loop would then idle for a second after every swap.
     */
    public void parkWhilePaused(QueuedPod qp, String waitingFor, String failure) {
        synchronized (lock) {
            inFlight.remove(qp.pod.uid());
            if (!pods.containsKey(qp.pod.uid())) {
                return;
            }
            qp.attempts--;
            qp.notAttempted = true;
            qp.unschedulablePlugins = Set.of(waitingFor);
            qp.lastFailure = failure;
            if (moveRequestCycle >= qp.cycle) {
                // the profile came back while the pod was out of the queue
                requeue(qp);
            } else {
                qp.unschedulableSince = clock.instant();
                unschedulable.put(qp.pod.uid(), qp);
            }
        }
    }

    /** The attempt failed with an error: the pod retries after its backoff. */
    public void addBackoff(QueuedPod qp, String failure) {
        synchronized (lock) {
            inFlight.remove(qp.pod.uid());
            if (!pods.containsKey(qp.pod.uid())) {
                return;
            }
            qp.lastFailure = failure;
            qp.timestamp = clock.instant();
            qp.backoffExpiry = backoffTimes.end(clock.instant(), qp.attempts);
            errorBackoff.add(qp);
        }
    }

    /** 1 s, 2 s, 4 s ... doubling per attempt, capped at the maximum. */
    public Duration backoffDuration(int attempts) {
        return backoffTimes.duration(attempts);
    }

    // ---- events and flushes -------------------------------------------------------------------------

    /**
     * A cluster event: the unschedulable pods it {@link QueueingHints#isPodWorthRequeuing may help}
     * move to the active queue (or backoff, if their backoff has not passed).
     */
    public int onEvent(QueueingHints hints, String kind, ActionType action, Object oldObject, Object newObject) {
        return onEvent(kind, action, qp -> hints.isPodWorthRequeuing(qp, kind, action, oldObject, newObject));
    }

    /**
     * A cluster event: unschedulable pods that {@code mayHelp} says it may help move to the active
     * queue (or backoff, if their backoff has not passed); gated pods it may help go through
     * PreEnqueue again. Returns how many pods moved.
     */
    public int onEvent(String kind, ActionType action, Predicate<QueuedPod> mayHelp) {
        synchronized (lock) {
            moveRequestCycle = schedulingCycle;
            List<QueuedPod> moving =
                    unschedulable.values().stream().filter(mayHelp).toList();
            for (QueuedPod qp : moving) {
                unschedulable.remove(qp.pod.uid());
                requeue(qp);
            }
            // as upstream's gated pods: an event the gating plugin says may help runs PreEnqueue again
            List<QueuedPod> ungating = gated.values().stream().filter(mayHelp).toList();
            int passed = 0;
            for (QueuedPod qp : ungating) {
                gated.remove(qp.pod.uid());
                enqueueOrGate(qp);
                passed += gated.containsKey(qp.pod.uid()) ? 0 : 1;
            }
            return moving.size() + passed;
        }
    }

    /** Sets why the unschedulable pods matching {@code which} wait (their paused profile's state changed). */
    public void setFailure(Predicate<QueuedPod> which, String failure) {
        synchronized (lock) {
            for (QueuedPod qp : unschedulable.values()) {
                if (which.test(qp)) {
                    qp.lastFailure = failure;
                }
            }
        }
    }

    /** Moves unschedulable pods matching {@code which} back (a profile became ready, a plugin came back). */
    public int moveIf(Predicate<QueuedPod> which) {
        synchronized (lock) {
            moveRequestCycle = schedulingCycle;
            List<QueuedPod> moving =
                    unschedulable.values().stream().filter(which).toList();
            for (QueuedPod qp : moving) {
                unschedulable.remove(qp.pod.uid());
                requeue(qp);
            }
            return moving.size();
        }
    }

    /**
     * Back to the active queue, or to backoff if its backoff has not passed; as upstream's, through
     * the PreEnqueue plugins first (asynchronous preemption keeps its preemptor out this way).
     */
    private void requeue(QueuedPod qp) {
        if (!qp.notAttempted && gatedNow(qp)) {
            return;
        }
        qp.gatedBy = null;
        if (qp.notAttempted) {
            qp.notAttempted = false;
            active.add(qp);
        } else {
            qp.backoffExpiry = backoffTimes.end(qp.timestamp, qp.attempts);
            if (backoffTimes.backingOff(qp.backoffExpiry, clock.instant())) {
                backoff.add(qp);
            } else {
                qp.timestamp = clock.instant();
                active.add(qp);
            }
        }
        lock.notifyAll();
    }

    /**
     * Upstream's Activate: a pod waiting (unschedulable, backing off, gated) goes to the active
     * queue through PreEnqueue; one in its attempt goes there when the attempt fails.
     */
    public void activate(PodInfo pod) {
        synchronized (lock) {
            QueuedPod qp = pods.get(pod.uid());
            if (qp == null || closed) {
                return;
            }
            if (inFlight.containsKey(pod.uid())) {
                qp.activateAfterAttempt = true;
                return;
            }
            if (removeWaiting(qp)) {
                enqueueOrGate(qp);
            }
        }
    }

    /** Moves pods whose backoff has passed to the active queue. */
    public void flushBackoffCompleted() {
        synchronized (lock) {
            Instant now = clock.instant();
            boolean moved = false;
            for (PriorityQueue<QueuedPod> q : List.of(backoff, errorBackoff)) {
                while (!q.isEmpty() && !backoffTimes.backingOff(q.peek().backoffExpiry, now)) {
                    QueuedPod qp = q.poll();
                    qp.timestamp = now;
                    active.add(qp);
                    moved = true;
                }
            }
            if (moved) {
                lock.notifyAll();
            }
        }
    }

    /** Moves pods unschedulable for longer than {@link #MAX_UNSCHEDULABLE} back (upstream's periodic flush). */
    public void flushUnschedulableLeftover() {
        synchronized (lock) {
            Instant limit = clock.instant().minus(MAX_UNSCHEDULABLE);
            List<QueuedPod> moving = unschedulable.values().stream()
                    .filter(qp -> qp.unschedulableSince.isBefore(limit))
                    .toList();
            for (QueuedPod qp : moving) {
                unschedulable.remove(qp.pod.uid());
                requeue(qp);
            }
        }
    }

    // ---- views -----------------------------------------------------------------------------------------

    public boolean contains(String uid) {
        synchronized (lock) {
            return pods.containsKey(uid);
        }
    }

    /** Counts per sub-queue: active, backoff, unschedulable, gated, inFlight. */
    public Map<String, Integer> counts() {
        synchronized (lock) {
            Map<String, Integer> c = new LinkedHashMap<>();
            c.put("active", active.size());
            c.put("backoff", backoff.size() + errorBackoff.size());
            c.put("unschedulable", unschedulable.size());
            c.put("gated", gated.size());
            c.put("inFlight", inFlight.size());
            return c;
        }
    }

    public List<QueueEntry> entries() {
        synchronized (lock) {
            List<QueueEntry> out = new ArrayList<>();
            List<Map.Entry<String, Collection<QueuedPod>>> queues = List.of(
                    Map.entry("active", active),
                    Map.entry("backoff", backoff),
                    Map.entry("backoff", errorBackoff),
                    Map.entry("unschedulable", unschedulable.values()),
                    Map.entry("gated", gated.values()),
                    Map.entry("inFlight", inFlight.values()));
            for (Map.Entry<String, Collection<QueuedPod>> q : queues) {
                for (QueuedPod qp : q.getValue()) {
                    out.add(entry(qp, q.getKey()));
                }
            }
            return out;
        }
    }

    private static QueueEntry entry(QueuedPod qp, String queue) {
        String why = "gated".equals(queue) ? qp.gatedBy : qp.lastFailure;
        return new QueueEntry(qp.pod.key(), queue, qp.attempts, qp.unschedulablePlugins, why);
    }

    /** Wakes a blocked {@link #pop()} with null; the queue accepts nothing afterwards. */
    public void close() {
        synchronized (lock) {
            closed = true;
            lock.notifyAll();
        }
    }
}
