package io.hotsched.core.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.hotsched.api.framework.ActionType;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;
import io.hotsched.core.support.ManualClock;
import io.hotsched.testing.Pods;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class SchedulingQueueTest {

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));

    private SchedulingQueue queue() {
        SchedulingQueue q = new SchedulingQueue(
                clock,
                Duration.ofSeconds(1),
                Duration.ofSeconds(10),
                p -> p.labels().containsKey("gated")
                        ? Status.unresolvable("waiting for scheduling gates").withPlugin("SchedulingGates")
                        : Status.SUCCESS);
        q.setLess((a, b) -> a.pod().priority() > b.pod().priority()
                || a.pod().priority() == b.pod().priority() && a.timestamp().isBefore(b.timestamp()));
        return q;
    }

    /** Adds pod p and pops it, as the scheduling loop does before an attempt. */
    private static QueuedPod popOne(SchedulingQueue q) throws InterruptedException {
        q.add(Pods.pod("p").info());
        return q.pop();
    }

    /**
     * The one pod in {@code from} is still there once {@code before} has passed, and {@code flush}
     * moves it to active once {@code after} more has.
     */
    private void staysThenMoves(
            SchedulingQueue q, String from, Duration before, Duration after, Consumer<SchedulingQueue> flush) {
        clock.advance(before);
        flush.accept(q);
        assertEquals(1, q.counts().get(from));
        clock.advance(after);
        flush.accept(q);
        assertEquals(1, q.counts().get("active"));
    }

    @Test
    void backoffDoublesFromInitialToMax() {
        SchedulingQueue q = queue();
        assertEquals(Duration.ofSeconds(1), q.backoffDuration(1));
        assertEquals(Duration.ofSeconds(2), q.backoffDuration(2));
        assertEquals(Duration.ofSeconds(8), q.backoffDuration(4));
        assertEquals(Duration.ofSeconds(10), q.backoffDuration(5));
        assertEquals(Duration.ofSeconds(10), q.backoffDuration(30));
    }

    @Test
    void higherPriorityFirstThenFifo() throws Exception {
        SchedulingQueue q = queue();
        q.add(Pods.pod("low").priority(1).info());
        clock.advance(Duration.ofMillis(1));
        q.add(Pods.pod("high").priority(100).info());
        clock.advance(Duration.ofMillis(1));
        q.add(Pods.pod("low2").priority(1).info());
        assertEquals("high", q.pop().pod().name());
        assertEquals("low", q.pop().pod().name());
        assertEquals("low2", q.pop().pod().name());
    }

    @Test
    void preEnqueueGatesUntilThePodChanges() throws Exception {
        SchedulingQueue q = queue();
        PodInfo gated = Pods.pod("g").label("gated", "yes").info();
        q.add(gated);
        assertEquals(1, q.counts().get("gated"));
        assertEquals(0, q.counts().get("active"));
        assertEquals(
                "SchedulingGates: waiting for scheduling gates",
                q.entries().get(0).lastFailure());
        q.update(Pods.pod("g").info());
        assertEquals(1, q.counts().get("active"));
        assertEquals("g", q.pop().pod().name());
    }

    @Test
    void anEventTheGatingPluginWantsChecksTheGateAgain() throws Exception {
        java.util.Set<String> open = java.util.concurrent.ConcurrentHashMap.newKeySet();
        SchedulingQueue q = new SchedulingQueue(
                clock,
                Duration.ofSeconds(1),
                Duration.ofSeconds(10),
                p -> open.contains(p.name())
                        ? Status.SUCCESS
                        : Status.unresolvable("ResourceClaim not created yet").withPlugin("DynamicResources"));
        q.add(Pods.pod("g").info());
        assertEquals(1, q.counts().get("gated"));
        // an event another plugin wants does not touch it
        assertEquals(0, claimAddedFor(q, "VolumeBinding"));
        // the gating plugin's event, but the gate still holds: it stays gated
        assertEquals(0, claimAddedFor(q, "DynamicResources"));
        assertEquals(1, q.counts().get("gated"));
        open.add("g");
        assertEquals(1, claimAddedFor(q, "DynamicResources"));
        assertEquals(0, q.counts().get("gated"));
        assertEquals("g", q.pop().pod().name());
    }

    @Test
    void gatesAreCheckedAgainWhenThePodLeavesTheQueue() throws Exception {
        // the profile is paused while the pods arrive, so no PreEnqueue plugin can gate them yet
        boolean[] profileReady = {false};
        SchedulingQueue q = new SchedulingQueue(
                clock,
                Duration.ofSeconds(1),
                Duration.ofSeconds(10),
                p -> !profileReady[0]
                        ? null
                        : p.labels().containsKey("gated")
                                ? Status.unresolvable("waiting for scheduling gates")
                                : Status.SUCCESS);
        q.add(Pods.pod("g").label("gated", "yes").info());
        clock.advance(Duration.ofMillis(1));
        q.add(Pods.pod("free").info());
        assertEquals(2, q.counts().get("active"));
        profileReady[0] = true;
        assertEquals("free", q.pop().pod().name());
        assertEquals(1, q.counts().get("gated"));
    }

    @Test
    void unschedulablePodsMoveOnlyOnAnEventThatMayHelp() throws Exception {
        SchedulingQueue q = queue();
        QueuedPod qp = popOne(q);
        q.addUnschedulable(qp, Set.of("NodeResourcesFit"), "0/1 nodes are available: 1 Insufficient cpu.");
        assertEquals(1, q.counts().get("unschedulable"));
        assertEquals(0, q.onEvent("Node", ActionType.UPDATE_NODE_LABEL, x -> false));
        assertEquals(1, q.counts().get("unschedulable"));
        clock.advance(Duration.ofSeconds(5));
        assertEquals(
                1,
                q.onEvent("Node", ActionType.ADD, x -> x.unschedulablePlugins().contains("NodeResourcesFit")));
        assertEquals(1, q.counts().get("active"), "its backoff had passed: straight to active");
        assertSame(qp, q.pop());
    }

    @Test
    void aPodPoppedWhileItsProfileIsPausedComesBackWithoutBackoffOrAnAttempt() throws Exception {
        SchedulingQueue q = queue();
        QueuedPod qp = popOne(q);
        assertEquals(1, qp.attempts());
        q.parkWhilePaused(qp, "paused:default-scheduler", "profile default-scheduler paused: waiting for plugin(s) X");
        assertEquals(0, qp.attempts());
        assertEquals(1, q.counts().get("unschedulable"));
        assertEquals(1, q.moveIf(x -> true));
        assertEquals(1, q.counts().get("active"), "no backoff: the pod was not attempted");
        assertSame(qp, q.pop());
        // an attempt that fails after that counts as its first, with the first backoff
        q.onEvent("Node", ActionType.ADD, x -> true);
        q.addUnschedulable(qp, Set.of("NodeResourcesFit"), "no fit");
        assertEquals(1, q.counts().get("backoff"));
    }

    @Test
    void aPausedProfileThatCameBackDuringThePopSendsThePodStraightBack() throws Exception {
        SchedulingQueue q = queue();
        QueuedPod qp = popOne(q);
        q.moveIf(x -> true);
        q.parkWhilePaused(qp, "paused:default-scheduler", "paused");
        assertEquals(1, q.counts().get("active"));
    }

    /** A pod in backoff: popped, then found unschedulable after a move request came during its attempt. */
    private static QueuedPod backingOff(SchedulingQueue q, String name, int priority) throws InterruptedException {
        q.add(Pods.pod(name).priority(priority).info());
        QueuedPod qp = q.pop();
        q.onEvent("Node", ActionType.ADD, x -> true);
        q.addUnschedulable(qp, Set.of("NodeResourcesFit"), "no fit");
        return qp;
    }

    @Test
    void aMoveRequestDuringTheAttemptSendsThePodToBackoff() throws Exception {
        SchedulingQueue q = queue();
        q.setPopFromBackoffQ(false);
        backingOff(q, "p", 0);
        assertEquals(1, q.counts().get("backoff"));
        staysThenMoves(
                q, "backoff", Duration.ofMillis(999), Duration.ofMillis(1), SchedulingQueue::flushBackoffCompleted);
    }

    @Test
    void popFromBackoffQEndsBackoffOnTheWindowAfterTheOneHoldingItsEnd() throws Exception {
        SchedulingQueue q = queue();
        q.setPopFromBackoffQ(true);
        clock.advance(Duration.ofMillis(300));
        backingOff(q, "p", 0); // ends at 1.3 s, in the window [1 s, 2 s)
        staysThenMoves(
                q, "backoff", Duration.ofMillis(1699), Duration.ofMillis(1), SchedulingQueue::flushBackoffCompleted);
    }

    @Test
    void anEmptyActiveQueueHandsOutAnUnschedulablePodStillBackingOffButNotOneThatFailedWithAnError() throws Exception {
        SchedulingQueue q = queue();
        q.setPopFromBackoffQ(true);
        q.add(Pods.pod("error").info());
        q.addBackoff(q.pop(), "Post \"https://extender\": connection refused");
        QueuedPod unfit = backingOff(q, "unfit", 0);
        assertEquals(2, q.counts().get("backoff"));
        assertSame(unfit, q.pop(), "the active queue is empty: no idle loop while a pod backs off");
        assertEquals(2, unfit.attempts());
        assertEquals(1, q.counts().get("backoff"), "the pod that failed with an error waits its backoff out");
    }

    @Test
    void withoutPopFromBackoffQTheActiveQueueComesFirstAndBackoffIsWaitedOut() throws Exception {
        SchedulingQueue q = queue();
        q.setPopFromBackoffQ(false);
        backingOff(q, "unfit", 0);
        q.add(Pods.pod("new").info());
        assertEquals("new", q.pop().pod().name());
        assertEquals(1, q.counts().get("backoff"));
    }

    @Test
    void fromBackoffAnEarlierWindowComesFirstAndWithinOneWindowTheHigherPriority() throws Exception {
        SchedulingQueue q = queue();
        q.setPopFromBackoffQ(true);
        clock.advance(Duration.ofMillis(100));
        backingOff(q, "low", 1); // ends 1.1 s: window 1
        clock.advance(Duration.ofMillis(800));
        backingOff(q, "high", 100); // ends 1.9 s: window 1 too
        clock.advance(Duration.ofMillis(700));
        backingOff(q, "urgent", 1000); // ends 2.6 s: window 2
        assertEquals(
                List.of("high", "low", "urgent"),
                List.of(
                        q.pop().pod().name(),
                        q.pop().pod().name(),
                        q.pop().pod().name()));
    }

    @Test
    void leftoverUnschedulablePodsAreFlushedAfterFiveMinutes() throws Exception {
        SchedulingQueue q = queue();
        q.addUnschedulable(popOne(q), Set.of("X"), "no");
        staysThenMoves(
                q,
                "unschedulable",
                Duration.ofMinutes(4),
                Duration.ofMinutes(2),
                SchedulingQueue::flushUnschedulableLeftover);
    }

    @Test
    void deletedPodsLeaveEverySubQueue() throws Exception {
        SchedulingQueue q = queue();
        PodInfo p = Pods.pod("p").info();
        q.add(p);
        q.addUnschedulable(q.pop(), Set.of("X"), "no");
        q.delete(p);
        assertEquals(0, q.entries().size());
    }

    @Test
    void aClosedQueueTakesNoPodInAndPopReturnsNullAtOnce() throws Exception {
        SchedulingQueue q = queue();
        PodInfo gated = Pods.pod("g").label("gated", "yes").info();
        q.add(gated);
        q.close();
        q.add(Pods.pod("new").info());
        // an update of a pod never seen adds it, one of a gated pod would move it to active
        q.update(Pods.pod("unseen").info());
        q.update(Pods.pod("g").info());
        assertEquals(
                List.of("default/g"),
                q.entries().stream().map(QueueEntry::podKey).toList());
        assertEquals(0, q.counts().get("active"));
        assertEquals(1, q.counts().get("gated"));
        assertNull(assertTimeoutPreemptively(Duration.ofSeconds(5), q::pop));
    }

    /** Pods moved by a ResourceClaim added, which helps the pods that {@code plugin} rejected. */
    private static int claimAddedFor(SchedulingQueue q, String plugin) {
        return q.onEvent(
                "ResourceClaim", ActionType.ADD, x -> x.unschedulablePlugins().contains(plugin));
    }

    /** A queue whose PreEnqueue holds the pods in {@code held}, as asynchronous preemption holds its preemptor. */
    private SchedulingQueue holding(Set<String> held) {
        return new SchedulingQueue(
                clock,
                Duration.ofSeconds(1),
                Duration.ofSeconds(10),
                p -> held.contains(p.uid())
                        ? Status.unresolvable("waiting for the preemption for this pod to be finished")
                                .withPlugin("DefaultPreemption")
                        : Status.SUCCESS);
    }

    @Test
    void aPodMovedBackByAnEventGoesThroughPreEnqueueFirst() throws Exception {
        Set<String> held = new CopyOnWriteArraySet<>();
        SchedulingQueue q = holding(held);
        QueuedPod qp = popOne(q);
        held.add(qp.pod().uid());
        q.addUnschedulable(qp, Set.of("NodeResourcesFit"), "0/1 nodes are available");

        q.onEvent("Pod", ActionType.DELETE, p -> true);
        assertEquals(1, q.counts().get("gated"), "held by PreEnqueue on its way back");
        assertEquals(0, q.counts().get("backoff") + q.counts().get("active"));
        assertEquals(
                "DefaultPreemption: waiting for the preemption for this pod to be finished",
                q.entries().get(0).lastFailure());

        held.clear();
        q.onEvent("Pod", ActionType.DELETE, p -> true);
        assertEquals(0, q.counts().get("gated"));
        assertEquals(1, q.counts().get("active"));
    }

    @Test
    void activateMovesAWaitingPodToTheActiveQueue() throws Exception {
        SchedulingQueue q = holding(Set.of());
        QueuedPod qp = popOne(q);
        q.addUnschedulable(qp, Set.of("NodeResourcesFit"), "0/1 nodes are available");
        assertEquals(1, q.counts().get("unschedulable"));

        q.activate(qp.pod());
        assertEquals(1, q.counts().get("active"));
        assertSame(qp, q.pop());
    }

    @Test
    void aPodActivatedInItsAttemptDoesNotWaitWithTheUnschedulableOnes() throws Exception {
        SchedulingQueue q = holding(Set.of());
        QueuedPod qp = popOne(q);
        q.activate(qp.pod());
        q.addUnschedulable(qp, Set.of("NodeResourcesFit"), "0/1 nodes are available");
        assertEquals(0, q.counts().get("unschedulable"));
        assertEquals(1, q.counts().get("backoff") + q.counts().get("active"));
    }
}
