package io.hotsched.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.hotsched.api.framework.PodInfo;
import io.hotsched.core.runtime.ShadowResult;
import io.hotsched.testing.Pods;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Observe-only mode's bookkeeping: decisions waiting by pod, the cap on them, the order of decision and binding. */
class ObserverTest {

    /** Decisions handed over and not run yet: the test runs them when it wants. */
    private final List<Runnable> held = new ArrayList<>();

    private ShadowRunner.Admission admission = ShadowRunner.Admission.ACCEPTED;
    private final AtomicInteger decided = new AtomicInteger();
    private final ShadowFigures figures = new ShadowFigures("observe:obs", "default-scheduler", "obs", true);
    private Observer observer;

    @BeforeEach
    void setUp() {
        observer = new Observer(job -> {
            if (admission == ShadowRunner.Admission.ACCEPTED) {
                held.add(job);
            }
            return admission;
        });
        // the observer always chooses n1; when n1 is bound, it agrees
        observer.observe(new Observer.Target("default-scheduler", "obs", figures, pod -> {
            decided.incrementAndGet();
            return new Observer.Decision(bound -> result(pod, bound, "n1"), 1000, 500);
        }));
    }

    private static ShadowResult result(PodInfo pod, String bound, String choice) {
        List<ShadowResult.NodeVerdict> diffs = bound == null || bound.equals(choice)
                ? List.of()
                : List.of(new ShadowResult.NodeVerdict(bound, null, "F: no"));
        return new ShadowResult(
                pod.key(),
                "obs",
                "observe:obs",
                "default-scheduler",
                "obs",
                bound,
                choice,
                diffs,
                List.of(),
                0,
                null,
                false,
                true,
                List.of());
    }

    private static PodInfo pending(String name) {
        return Pods.pod(name).uid(name).scheduler("default-scheduler").info();
    }

    private static PodInfo bound(String name, String node) {
        return Pods.pod(name)
                .uid(name)
                .scheduler("default-scheduler")
                .node(node)
                .info();
    }

    private void runHeld() {
        List<Runnable> jobs = List.copyOf(held);
        held.clear();
        jobs.forEach(Runnable::run);
    }

    @Test
    void atTheCapAPodIsNotDecidedAndIsCountedUntilAWaitingOneIsBound() {
        for (int i = 0; i < Observer.CAP; i++) {
            observer.pending(pending("p" + i));
        }
        assertEquals(Observer.CAP, observer.waiting());
        observer.pending(pending("one-too-many"));
        observer.pending(pending("two-too-many"));
        assertEquals(2, figures.skippedPending());
        assertEquals(Observer.CAP, observer.waiting());
        assertEquals(Observer.CAP, held.size(), "the pods over the cap were not handed over");
        runHeld();
        observer.bound(bound("p0", "n1"));
        assertEquals(Observer.CAP - 1, observer.waiting());
        observer.pending(pending("room-again"));
        assertEquals(Observer.CAP, observer.waiting());
        assertEquals(2, figures.skippedPending());
    }

    @Test
    void aPodBoundBeforeItsDecisionFinishedIsComparedWhenItFinishes() {
        observer.pending(pending("early"));
        observer.bound(bound("early", "n2"));
        assertEquals(0, figures.compared(), "nothing to compare before the decision");
        runHeld();
        assertEquals(1, figures.compared());
        assertEquals(0, figures.agreed());
        assertEquals(Map.of("observer refuses: F: no", 1L), figures.disagreementsByReason());
        assertEquals(0, observer.waiting());
    }

    @Test
    void aPodDecidedThenBoundIsComparedOnceHoweverOftenItIsSeen() {
        observer.pending(pending("p"));
        observer.pending(pending("p"));
        runHeld();
        assertEquals(1, decided.get(), "decided once while pending");
        observer.bound(bound("p", "n1"));
        observer.bound(bound("p", "n1"));
        assertEquals(1, figures.compared());
        assertEquals(1, figures.agreed());
        assertEquals(1000, figures.meanShadowNanos());
        assertEquals(500, figures.shadowCpuNanos());
    }

    @Test
    void aPodTheOtherSchedulerFoundNoNodeForIsComparedWithNoNodeAndNotAgain() {
        observer.pending(pending("u"));
        observer.unschedulable(pending("u"));
        runHeld();
        assertEquals(1, figures.compared());
        assertEquals(
                Map.of("the observed scheduler found no node, the observer one", 1L), figures.disagreementsByReason());
        observer.bound(bound("u", "n1"));
        assertEquals(1, figures.compared(), "compared once");
        assertEquals(0, observer.waiting());
    }

    @Test
    void podsOfOtherSchedulersDeletedOnesAndUnknownBindingsAreLeftAlone() {
        observer.pending(Pods.pod("mine").uid("mine").scheduler("obs").info());
        observer.bound(bound("never-pending", "n1"));
        observer.pending(pending("gone"));
        observer.forget("gone");
        runHeld();
        observer.bound(bound("gone", "n1"));
        assertEquals(0, observer.waiting());
        assertEquals(0, figures.compared());
        assertEquals(1, decided.get(), "only the observed pod was decided");
    }

    @Test
    void overTheCpuShareOrWithTheQueueFullAPodIsSkippedAndCounted() {
        admission = ShadowRunner.Admission.OVER_CPU;
        observer.pending(pending("a"));
        admission = ShadowRunner.Admission.QUEUE_FULL;
        observer.pending(pending("b"));
        admission = ShadowRunner.Admission.SAMPLED_OUT;
        observer.pending(pending("c"));
        assertEquals(1, figures.skippedCpu());
        assertEquals(1, figures.skippedQueue());
        assertEquals(0, observer.waiting());
    }

    @Test
    void turnedOffOrRetargetedItForgetsTheWaitingPods() {
        observer.pending(pending("p"));
        runHeld();
        observer.observe(null);
        observer.bound(bound("p", "n1"));
        assertEquals(0, figures.compared());
        assertFalse(observer.observes("default-scheduler"));
    }
}
