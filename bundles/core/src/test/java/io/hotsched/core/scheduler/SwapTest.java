package io.hotsched.core.scheduler;

import static io.hotsched.core.support.SchedulerFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.InvalidArgsException;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PermitPlugin;
import io.hotsched.api.framework.PermitResult;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.ReservePlugin;
import io.hotsched.api.framework.Status;
import io.hotsched.api.framework.WaitingPod;
import io.hotsched.core.registry.Registration;
import io.hotsched.core.runtime.FrameworkImpl;
import io.hotsched.core.support.SchedulerFixture;
import io.hotsched.core.support.TestPlugins;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.OnePoint;
import io.hotsched.testing.Pods;
import io.hotsched.testing.SimplePlugins;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The swap protocol (io.hotsched.core.scheduler's package documentation), with latches instead of timing. */
class SwapTest {

    private final SchedulerFixture f = new SchedulerFixture().withBasePlugins();

    @AfterEach
    void close() {
        f.close();
    }

    /** A Filter plugin that holds inside filter() until released; records whether it was closed. */
    static final class Gate implements FilterPlugin {
        final TestPlugins.Hold hold = new TestPlugins.Hold();
        final AtomicBoolean closed = new AtomicBoolean();
        final AtomicBoolean calledAfterClose = new AtomicBoolean();

        @Override
        public String name() {
            return "Gate";
        }

        @Override
        public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
            if (closed.get()) {
                calledAfterClose.set(true);
            }
            hold.here();
            return Status.SUCCESS;
        }

        @Override
        public void close() {
            closed.set(true);
        }
    }

    private static final String PAUSED = "profile default-scheduler paused: waiting for plugin(s) ";

    /**
     * Once a call is held in {@code hold}, removes {@code r} on another thread; returns the removal
     * once it waits for that call.
     */
    private CompletableFuture<Void> removeWhileHeld(Registration r, TestPlugins.Hold hold, String why)
            throws InterruptedException {
        assertTrue(hold.awaitEntered());
        CompletableFuture<Void> removal = CompletableFuture.runAsync(() -> f.scheduler.pluginRemoved(r));
        // the profile pauses before the removal waits for the attempts on the old instance
        await("the removal under way", () -> f.describe().contains("waiting for plugin(s) " + r.name()));
        assertFalse(removal.isDone(), why);
        return removal;
    }

    @Test
    void aLeavingPluginWaitsForTheAttemptUsingItThenIsClosed() throws Exception {
        Gate gate = new Gate();
        CompletableFuture<Void> removal = removeWhileHeld(
                f.startWithOnePod(gate), gate.hold, "removal must wait for the attempt still in the plugin");
        assertFalse(gate.closed.get(), "not closed while in use");

        gate.hold.release.countDown();
        removal.get(10, TimeUnit.SECONDS);
        assertTrue(gate.closed.get(), "closed once the attempt ended");
        await(
                "the pinned attempt finished and bound",
                () -> f.cluster.bindings().size() == 1);
        assertFalse(gate.calledAfterClose.get());

        f.cluster.addPod(Pods.pod("q").cpu("100m").build());
        f.awaitQueued("default/q", PAUSED + "Gate");
        assertEquals(1, f.cluster.bindings().size(), "a paused profile binds nothing");
    }

    /** Reserve/Permit plugin: v1 holds pods in Permit, v2 lets them through; counts per instance. */
    static final class Gang implements ReservePlugin, PermitPlugin {
        final boolean hold;
        final AtomicInteger reserved = new AtomicInteger();
        final AtomicInteger unreserved = new AtomicInteger();
        final CountDownLatch waiting = new CountDownLatch(1);

        Gang(boolean hold) {
            this.hold = hold;
        }

        @Override
        public String name() {
            return "Gang";
        }

        @Override
        public Status reserve(CycleState state, PodInfo pod, String nodeName) {
            reserved.incrementAndGet();
            return Status.SUCCESS;
        }

        @Override
        public void unreserve(CycleState state, PodInfo pod, String nodeName) {
            unreserved.incrementAndGet();
        }

        @Override
        public PermitResult permit(CycleState state, PodInfo pod, String nodeName) {
            if (hold) {
                waiting.countDown();
                return PermitResult.waitFor(Duration.ofMinutes(1));
            }
            return PermitResult.ALLOW;
        }
    }

    @Test
    void podsWaitingInPermitAreRejectedUnreservedOnTheOldInstanceAndRescheduled() throws Exception {
        Gang v1 = new Gang(true);
        Gang v2 = new Gang(false);
        Registration r1 = f.add("Gang", TestPlugins.factory(h -> v1), "1.0.0");
        f.cluster.addNode(Nodes.node("n1").cpu("4").build());
        f.cluster.addPod(Pods.pod("p").cpu("1").build());
        f.start(SchedulerFixture.withPlugins("Gang"));
        assertTrue(v1.waiting.await(10, TimeUnit.SECONDS));
        assertEquals(1000, f.scheduler.cache().node("n1").requested().milliCpu(), "assumed while waiting");

        f.add("Gang", TestPlugins.factory(h -> v2), "2.0.0");
        f.scheduler.pluginRemoved(r1);

        await("bound by the new version", () -> f.cluster.bindings().size() == 1);
        assertEquals(1, v1.reserved.get());
        assertEquals(1, v1.unreserved.get(), "unreserved on the instance that reserved");
        assertEquals(1, v2.reserved.get());
        assertEquals(0, v2.unreserved.get());
        await(
                "cache settled",
                () -> f.scheduler.cache().assumedCount() == 0
                        || f.scheduler.cache().podCount() == 1);
        assertEquals(1000, f.scheduler.cache().node("n1").requested().milliCpu(), "counted once");
    }

    /** Permit plugin: a pod waits until another waits too, then both are allowed (a gang of two). */
    static final class Pair implements PermitPlugin {
        final Handle handle;
        final AtomicInteger waited = new AtomicInteger();

        Pair(Handle handle) {
            this.handle = handle;
        }

        @Override
        public String name() {
            return "Pair";
        }

        @Override
        public PermitResult permit(CycleState state, PodInfo pod, String nodeName) {
            List<WaitingPod> others = handle.waitingPods().list();
            if (others.isEmpty()) {
                waited.incrementAndGet();
                return PermitResult.waitFor(Duration.ofMinutes(1));
            }
            others.forEach(w -> w.allow("Pair"));
            return PermitResult.ALLOW;
        }
    }

    private static final String PAIR = SchedulerFixture.withPlugins("Pair");

    @Test
    void aPluginOfTheRebuiltFrameworkSeesAndAllowsThePodsWaitingOnTheOldOne() throws Exception {
        AtomicReference<Pair> v1 = new AtomicReference<>();
        AtomicReference<Pair> v2 = new AtomicReference<>();
        f.add("Pair", TestPlugins.factory(h -> set(v1, new Pair(h))), "1.0.0");
        f.cluster.addNode(Nodes.node("n1").cpu("4").build());
        f.cluster.addPod(Pods.pod("a").cpu("1").build());
        f.start(PAIR);
        await("a waits on version 1", () -> v1.get() != null && v1.get().waited.get() == 1);

        // version 2 serves from now on; version 1 stays as standby, so nothing drains a
        f.add("Pair", TestPlugins.factory(h -> set(v2, new Pair(h))), "2.0.0");
        await("the profile rebuilt on version 2", () -> v2.get() != null);
        f.cluster.addPod(Pods.pod("b").cpu("1").build());

        await(
                "b allowed a, which waits on the retired framework, and both bound",
                () -> f.cluster.bindings().size() == 2);
        assertEquals(0, v2.get().waited.get(), "b found a among the profile's waiting pods");
    }

    @Test
    void aStandbyVersionComingOrGoingLeavesTheProfileAsItIs() throws Exception {
        f.add("Pair", TestPlugins.factory(Pair::new), "2.0.0");
        f.start(PAIR);
        FrameworkImpl before =
                f.scheduler.profiles().profile("default-scheduler").framework();

        Registration standby = f.add("Pair", TestPlugins.factory(Pair::new), "1.0.0");
        assertSame(before, f.scheduler.profiles().profile("default-scheduler").framework(), "an older version arrived");
        f.scheduler.pluginRemoved(standby);
        assertSame(before, f.scheduler.profiles().profile("default-scheduler").framework(), "the standby left");
        assertFalse(before.retired());
    }

    @Test
    void aDrainRejectsOnlyThePodsWaitingOnTheDrainedFramework() throws Exception {
        Gang v1 = new Gang(true);
        Gang v2 = new Gang(true);
        Registration r1 = f.add("Gang", TestPlugins.factory(h -> v1), "1.0.0");
        f.cluster.addNode(Nodes.node("n1").cpu("4").build());
        f.cluster.addPod(Pods.pod("a").cpu("1").build());
        f.start(SchedulerFixture.withPlugins("Gang"));
        assertTrue(v1.waiting.await(10, TimeUnit.SECONDS));
        f.add("Gang", TestPlugins.factory(h -> v2), "2.0.0");
        f.cluster.addPod(Pods.pod("b").cpu("1").build());
        assertTrue(v2.waiting.await(10, TimeUnit.SECONDS));

        f.scheduler.pluginRemoved(r1);

        await("a rejected on version 1 and waiting again on version 2", () -> v2.reserved.get() == 2);
        assertEquals(1, v1.unreserved.get(), "a given back on the instance that reserved it");
        assertEquals(0, v2.unreserved.get(), "b, waiting on the framework that stays, kept its place");
        assertEquals(
                2,
                f.scheduler
                        .profiles()
                        .profile("default-scheduler")
                        .framework()
                        .waitingPods()
                        .list()
                        .size());
    }

    private static <T> T set(AtomicReference<T> ref, T value) {
        ref.set(value);
        return value;
    }

    @Test
    void removalWaitsForAPodBetweenReserveAndBind() throws Exception {
        TestPlugins.Hold hold = new TestPlugins.Hold();
        Registration r = f.startWithOnePod(new OnePoint.PreBind("SlowPreBind", (state, pod, node) -> {
            hold.here();
            return Status.SUCCESS;
        }));
        CompletableFuture<Void> removal =
                removeWhileHeld(r, hold, "removal must wait for the pod between Reserve and Bind");
        hold.release.countDown();
        removal.get(10, TimeUnit.SECONDS);
        await("bound", () -> f.cluster.bindings().size() == 1);
    }

    /** Starts {@link SchedulerFixture#BASE} without NodeResourcesFit; returns once pod p waits for it. */
    private void startWithoutFit() throws Exception {
        f.scheduler.pluginRemoved(f.registry.serving("NodeResourcesFit").orElseThrow());
        f.cluster.addNode(Nodes.node("n1").cpu("4").build());
        f.cluster.addPod(Pods.pod("p").cpu("100m").build());
        f.start(SchedulerFixture.BASE);
        f.awaitQueued("default/p", PAUSED + "NodeResourcesFit");
    }

    @Test
    void aProfileMissingAPluginPausesAndResumesWhenItReturns() throws Exception {
        startWithoutFit();
        assertEquals(List.of(), f.cluster.bindings(), "never placed without its configured Filter");
        assertEquals("paused: waiting for plugin(s) NodeResourcesFit", f.describe());

        f.add("NodeResourcesFit", TestPlugins.factory(h -> new SimplePlugins.CpuFit()), "1.0.1");
        await("bound once the plugin is back", () -> f.cluster.bindings().size() == 1);
    }

    @Test
    void aPodWaitingOnAPausedProfileSaysWhyItIsPausedNow() throws Exception {
        startWithoutFit();

        // the plugin comes back, but refuses its arguments: still paused, for another reason
        f.add(
                "NodeResourcesFit",
                (args, h) -> {
                    throw new InvalidArgsException("scoringStrategy", "bogus", "not a strategy");
                },
                "1.0.1");
        await(
                "the reason follows the profile",
                () -> f.scheduler.queue().entries().stream()
                        .anyMatch(e -> e.lastFailure() != null
                                && e.lastFailure().startsWith("profile default-scheduler paused: ")
                                && e.lastFailure().contains("not a strategy")));
        assertEquals(List.of(), f.cluster.bindings());
    }

    @Test
    void theHighestVersionServesAndRemovingItRollsBack() throws Exception {
        f.add("Prefer", TestPlugins.factory(h -> TestPlugins.prefer("n1")), "1.0.0");
        f.cluster.addNode(Nodes.node("n1").cpu("64").build());
        f.cluster.addNode(Nodes.node("n2").cpu("64").build());
        f.start(SchedulerFixture.withPlugins("Prefer\n        weight: 10"));
        f.cluster.addPod(Pods.pod("a").cpu("100m").build());
        await("a", () -> f.cluster.bindings().size() == 1);
        assertEquals("n1", f.cluster.bindings().get(0).nodeName());

        Registration v2 = f.add("Prefer", TestPlugins.factory(h -> TestPlugins.prefer("n2")), "2.0.0");
        f.cluster.addPod(Pods.pod("b").cpu("100m").build());
        await("b", () -> f.cluster.bindings().size() == 2);
        assertEquals("n2", f.cluster.bindings().get(1).nodeName());

        f.scheduler.pluginRemoved(v2);
        f.cluster.addPod(Pods.pod("c").cpu("100m").build());
        await("c", () -> f.cluster.bindings().size() == 3);
        assertEquals("n1", f.cluster.bindings().get(2).nodeName(), "back on version 1 at once");
    }
}
