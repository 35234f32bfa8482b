package io.hotsched.core.scheduler;

import static io.hotsched.core.support.SchedulerFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.api.framework.ActionType;
import io.hotsched.api.framework.ClusterEvent;
import io.hotsched.api.framework.ClusterEventWithHint;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.EnqueueExtensions;
import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PermitResult;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;
import io.hotsched.core.config.ExtensionPoint;
import io.hotsched.core.metrics.SchedulerMetrics;
import io.hotsched.core.queue.QueueingHints;
import io.hotsched.core.registry.Registration;
import io.hotsched.core.support.SchedulerFixture;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.OnePoint;
import io.hotsched.testing.Pods;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FaultIsolationTest {

    private final SchedulerFixture f = new SchedulerFixture().withBasePlugins();

    @AfterEach
    void close() {
        f.close();
    }

    /** "Flaky": throws while {@code broken} is set. */
    private static FilterPlugin flaky(AtomicBoolean broken) {
        return new OnePoint.Filter("Flaky", (state, pod, node) -> {
            if (broken.get()) {
                throw new IllegalStateException("flaky broke");
            }
            return Status.SUCCESS;
        });
    }

    @Test
    void aThrowingPluginFailsTheAttemptIsQuarantinedAndCanBeReleased() throws Exception {
        AtomicBoolean broken = new AtomicBoolean(true);
        Registration r = f.startWithOnePod(flaky(broken));
        String message = f.awaitError("default/p");
        assertTrue(message.contains("running \"Flaky\" filter plugin: flaky broke"), message);
        await("quarantined after 3 failed attempts", () -> f.health.quarantined(r));
        await("profile paused", () -> f.describe().equals("paused: waiting for plugin(s) Flaky"));
        assertEquals(3, f.health.counters(r).failures());
        assertTrue(f.cluster.bindings().isEmpty());

        broken.set(false);
        assertTrue(f.scheduler.release("Flaky"));
        await("bound after release", () -> f.cluster.bindings().size() == 1);
    }

    @Test
    void anOutOfRangeScoreFailsTheAttemptWithUpstreamsMessage() throws Exception {
        f.add(new OnePoint.Score("OutOfRange", (state, pod, node) -> 500L));
        f.cluster.addNode(Nodes.node("n1").cpu("4").build());
        f.cluster.addNode(Nodes.node("n2").cpu("4").build());
        f.cluster.addPod(Pods.pod("p").cpu("100m").build());
        f.start(SchedulerFixture.withPlugins("OutOfRange"));
        assertEquals(
                "applying score defaultWeights on Score plugins: plugin \"OutOfRange\" returns an invalid score 500, "
                        + "it should in the range of [0, 100] after normalizing",
                f.awaitError("default/p"));
    }

    /** Rejects node n1; its hint for added nodes needs a class its bundle lacks. */
    record NotN1() implements FilterPlugin, EnqueueExtensions {
        @Override
        public String name() {
            return "NotN1";
        }

        @Override
        public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
            return node.name().equals("n1") ? Status.unschedulable("not n1") : Status.SUCCESS;
        }

        @Override
        public List<ClusterEventWithHint> eventsToRegister() {
            return List.of(new ClusterEventWithHint(
                    ClusterEvent.of(ClusterEvent.NODE, ActionType.ADD), (pod, before, after) -> {
                        throw new NoClassDefFoundError("io/acme/Gone");
                    }));
        }
    }

    @Test
    void aQueueingHintMissingAClassIsAFaultOfItsPluginAndCountsAsQueue() throws Exception {
        Registration r = f.add(new NotN1());
        f.cluster.addNode(Nodes.node("n1").cpu("4").build());
        f.cluster.addPod(Pods.pod("p").cpu("100m").build());
        f.start(SchedulerFixture.withPlugins("NotN1"));
        await("p unschedulable", () -> f.scheduler.queue().counts().get("unschedulable") == 1);

        f.cluster.addNode(Nodes.node("n2").cpu("4").build());
        await(
                "p bound to n2 after the hint failed",
                () -> f.cluster.bindings().stream()
                        .anyMatch(b ->
                                b.podKey().equals("default/p") && b.nodeName().equals("n2")));
        await("counted against the plugin", () -> f.health.counters(r).failures() >= 1);
        assertEquals(
                "running the queueing hint of plugin \"NotN1\" for Node ADD of pod default/p:"
                        + " java.lang.NoClassDefFoundError: io/acme/Gone",
                f.health.counters(r).lastError());
        assertEquals(1, f.scheduler.metrics().faults("NotN1", QueueingHints.FAULT_POINT, SchedulerMetrics.FAULT_ERROR));
    }

    /** Blocks in Filter for pods named "stuck-*" until released: a plugin that hangs. */
    static final class Hanging implements FilterPlugin {
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger returned = new AtomicInteger();
        final Set<CycleState> stuckAttempts = ConcurrentHashMap.newKeySet();

        @Override
        public String name() {
            return "Hanging";
        }

        @Override
        public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
            if (pod.name().startsWith("stuck-")) {
                stuckAttempts.add(state);
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                returned.incrementAndGet();
            }
            return Status.SUCCESS;
        }
    }

    /** Registers {@code hanging} with a Filter time-out of 100ms. */
    private Registration addWithTimeOut(Hanging hanging) {
        f.scheduler.timeouts().set(ExtensionPoint.FILTER, 100);
        return f.add(hanging);
    }

    @Test
    void aCallPastItsTimeOutFailsTheAttemptAndCounts() throws Exception {
        Hanging slow = new Hanging();
        Registration r = addWithTimeOut(slow);
        try {
            f.cluster.addNode(Nodes.node("n1").cpu("4").build());
            f.cluster.addPod(Pods.pod("stuck-p").cpu("100m").build());
            f.start(SchedulerFixture.withPlugins("Hanging"));
            String msg = f.awaitError("default/stuck-p");
            // given up by the watchdog while running, or measured when it returned: the same words
            assertTrue(
                    msg.matches(
                            "running \"Hanging\" filter plugin: (took|still running after) \\d+ms, over the 100ms time-out for Filter"),
                    msg);
            await("counted against the plugin", () -> f.health.counters(r).failures() >= 1);
            assertTrue(f.cluster.bindings().isEmpty());

            // the call returns late: its pod is placed, and the late return is not counted again
            slow.release.countDown();
            await("bound once the call returned", () -> f.cluster.bindings().size() == 1);
            assertEquals(1, f.health.counters(r).failures());
        } finally {
            slow.release.countDown();
        }
    }

    @Test
    void aCallThatHangsIsGivenUpItsPluginWaitsForItAndTheLoopGoesOn() throws Exception {
        Hanging hanging = new Hanging();
        Registration r = addWithTimeOut(hanging);
        try {
            for (int i = 0; i < 4; i++) {
                f.cluster.addNode(Nodes.node("n" + i).cpu("4").build());
            }
            f.cluster.addPod(Pods.pod("stuck-1").cpu("100m").build());
            f.start(SchedulerFixture.withPlugins("Hanging") + SchedulerFixture.PLAIN_PROFILE);
            String given = f.awaitError("default/stuck-1");
            assertTrue(
                    given.matches(
                            "running \"Hanging\" filter plugin: still running after \\d+ms, over the 100ms time-out for Filter"),
                    given);
            // its plugin serves no new attempt while the call runs; its profile pauses
            await("the plugin stuck", () -> f.health.stuck(r));
            await(
                    "the profile waits for the plugin",
                    () -> f.describe().equals("paused: waiting for plugin(s) Hanging"));
            // the loop went on: the other profile schedules while the call hangs
            for (int i = 0; i < 20; i++) {
                f.cluster.addPod(
                        Pods.pod("plain-" + i).scheduler("plain").cpu("100m").build());
            }
            await("the other profile's pods bound", () -> f.cluster.bindings().size() == 20);
            assertEquals(0, hanging.returned.get(), "no stuck call has returned yet");
            int attempts = hanging.stuckAttempts.size();
            assertEquals(1, attempts, "no second attempt went into the hanging plugin");
            assertEquals(
                    1,
                    f.health.counters(r).failures(),
                    "the given-up attempt counted although its call has not returned");

            hanging.release.countDown();
            await("the stuck calls return", () -> hanging.returned.get() >= 1);
            await(
                    "the plugin serves again and the requeued pod is bound",
                    () -> f.cluster.bindings().size() == 21);
            assertEquals(1, f.health.counters(r).failures(), "not counted again when its call returned");
            assertEquals(
                    21,
                    f.cluster.bindings().stream()
                            .map(b -> b.podKey())
                            .distinct()
                            .count(),
                    "no pod bound twice");
        } finally {
            hanging.release.countDown();
        }
    }

    @Test
    void podsWaitingInPermitHoldNoBindingThread() throws Exception {
        try (SchedulerFixture one = new SchedulerFixture(
                        new SchedulerOptions(1, Duration.ofSeconds(30), Duration.ofSeconds(5), 3, 1000))
                .withBasePlugins()) {
            // holds the pods named "gang-*" for a minute
            one.add(new OnePoint.Permit(
                    "Holding",
                    (state, pod, node) -> pod.name().startsWith("gang-")
                            ? PermitResult.waitFor(Duration.ofMinutes(1))
                            : PermitResult.ALLOW));
            one.cluster.addNode(Nodes.node("n1").cpu("4").build());
            for (int i = 0; i < 3; i++) {
                one.cluster.addPod(Pods.pod("gang-" + i).cpu("100m").build());
            }
            one.start(SchedulerFixture.withPlugins("Holding"));
            await(
                    "the gang waits in Permit",
                    () -> one.scheduler
                                    .profiles()
                                    .profile("default-scheduler")
                                    .framework()
                                    .waitingPods()
                                    .list()
                                    .size()
                            == 3);
            // with one binding thread, a waiting pod that held it would keep this one from binding
            one.cluster.addPod(Pods.pod("solo").cpu("100m").build());
            await(
                    "a pod behind the waiting ones bound",
                    () -> one.cluster.bindings().size() == 1);
            assertEquals("default/solo", one.cluster.bindings().get(0).podKey());
        }
    }

    @Test
    void otherProfilesKeepSchedulingWhileOneIsPaused() throws Exception {
        f.add(flaky(new AtomicBoolean(true)));
        String twoProfiles = SchedulerFixture.withPlugins("Flaky") + SchedulerFixture.PLAIN_PROFILE;
        f.cluster.addNode(Nodes.node("n1").cpu("4").build());
        f.cluster.addPod(Pods.pod("flaky-pod").cpu("100m").build());
        f.start(twoProfiles);
        await("quarantined", () -> f.describe().startsWith("paused"));
        f.cluster.addPod(Pods.pod("plain-pod").scheduler("plain").cpu("100m").build());
        await("the other profile binds", () -> f.cluster.bindings().size() == 1);
        assertEquals("default/plain-pod", f.cluster.bindings().get(0).podKey());
    }
}
