package io.hotsched.core.scheduler;

import static io.hotsched.core.support.SchedulerFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.api.framework.BindPlugin;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeInfoLister;
import io.hotsched.api.framework.NodeScores;
import io.hotsched.api.framework.NodeToStatus;
import io.hotsched.api.framework.PermitResult;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PostFilterResult;
import io.hotsched.api.framework.PreEnqueuePlugin;
import io.hotsched.api.framework.PreFilterExtensions;
import io.hotsched.api.framework.PreFilterResult;
import io.hotsched.api.framework.QueueSortPlugin;
import io.hotsched.api.framework.QueuedPodInfo;
import io.hotsched.api.framework.ScoreExtensions;
import io.hotsched.api.framework.Status;
import io.hotsched.api.framework.ext.Transformation;
import io.hotsched.core.admin.ExplainView;
import io.hotsched.core.config.ExtensionPoint;
import io.hotsched.core.metrics.SchedulerMetrics;
import io.hotsched.core.registry.Registration;
import io.hotsched.core.runtime.CoarseClock;
import io.hotsched.core.runtime.PluginCall;
import io.hotsched.core.support.AllPoints;
import io.hotsched.core.support.SchedulerFixture;
import io.hotsched.core.support.TestPlugins;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every way the framework calls a plugin (each extension point, as plugin, transformer or
 * extension) is watched the same way: a call that hangs past its time-out is given up by the
 * watchdog, counted against the plugin and in {@code hotsched_plugin_faults_total}, named in
 * {@code sched:explain}, and scheduling goes on for the other profiles (the loop on a new thread, a
 * binding on another slot).
 */
class CallTimeOutTest {

    private static final String PLUGIN = "HangAt";
    private SchedulerFixture f;
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void tearDown() {
        release.countDown();
        if (f != null) {
            f.close();
        }
    }

    /**
     * Every call but PreEnqueue and QueueSort: those run under the queue's lock, where giving up
     * would not free anything (a late return is still a fault, see {@link
     * #aPreEnqueueCallReturningLateIsAFault} and {@link #aQueueSortCallReturningLateIsAFault}).
     */
    static Stream<PluginCall> watchedCalls() {
        return Stream.of(PluginCall.values()).filter(c -> c != PluginCall.PRE_ENQUEUE && c != PluginCall.QUEUE_SORT);
    }

    @ParameterizedTest
    @MethodSource("watchedCalls")
    void aHangingCallIsGivenUpCountedNamedAndSchedulingGoesOn(PluginCall call) throws Exception {
        f = new SchedulerFixture().withBasePlugins();
        HangAt plugin = new HangAt(call, PLUGIN, release);
        Registration r = f.add(PLUGIN, TestPlugins.factory(plugin::withHandle), "1.0.0");
        f.scheduler.timeouts().set(call.point(), 100);
        f.cluster.addNode(Nodes.node("n1").cpu("4").build());
        f.cluster.addNode(Nodes.node("n2").cpu("4").build());
        if (call == PluginCall.ADD_POD) {
            // AddPod runs when Filter counts the pods nominated to a node
            f.scheduler
                    .queue()
                    .nominator()
                    .nominate(Pods.pod("nominated").priority(10).info(), "n1");
        }
        boolean unfit = call.point() == ExtensionPoint.POST_FILTER || call == PluginCall.REMOVE_POD;
        f.cluster.addPod(Pods.pod("stuck").cpu(unfit ? "100" : "100m").build());
        f.start(SchedulerFixture.HEADER
                + SchedulerFixture.profile("default-scheduler", PLUGIN)
                + SchedulerFixture.PLAIN_PROFILE);

        await("the call entered", () -> plugin.entered().get() > 0);
        String label = call.point().label();
        await(
                "the watchdog gave the call up and counted it",
                () -> f.scheduler.metrics().faults(PLUGIN, label, SchedulerMetrics.FAULT_TIMEOUT) >= 1);
        await("counted against the plugin", () -> f.health.counters(r).failures() >= 1);
        String named = call.describe(PLUGIN) + ": still running after ";
        await("named in sched:explain", () -> {
            ExplainView e = f.scheduler.explain("default/stuck");
            return e != null
                    && (e.message().contains(named) || e.notes().stream().anyMatch(n -> n.contains(named)));
        });

        f.cluster.addPod(Pods.pod("after").scheduler("plain").cpu("100m").build());
        await("another profile's pod is bound meanwhile", () -> bound("default/after"));
    }

    @Test
    void asManyHangingPreBindsAsBindingSlotsDoNotStopBinding() throws Exception {
        int slots = 2;
        f = new SchedulerFixture(new SchedulerOptions(slots, Duration.ofSeconds(30), Duration.ofSeconds(5), 3, 1000))
                .withBasePlugins();
        StringBuilder profiles = new StringBuilder();
        List<HangAt> hanging = new ArrayList<>();
        for (int i = 0; i < slots; i++) {
            // one plugin and profile each: a plugin given up on pauses only its own profile
            HangAt h = new HangAt(PluginCall.PRE_BIND, "Hang" + i, release);
            hanging.add(h);
            f.add(h.name(), TestPlugins.factory(h::withHandle), "1.0.0");
            profiles.append(SchedulerFixture.profile("p" + i, h.name()));
            f.cluster.addPod(
                    Pods.pod("stuck-" + i).scheduler("p" + i).cpu("100m").build());
        }
        f.scheduler.timeouts().set(ExtensionPoint.PRE_BIND, 200);
        f.cluster.addNode(Nodes.node("n1").cpu("4").build());
        f.start(SchedulerFixture.HEADER + profiles + SchedulerFixture.PLAIN_PROFILE);
        for (HangAt h : hanging) {
            await(
                    "every binding slot is in a hanging PreBind",
                    () -> h.entered().get() == 1);
        }
        f.cluster.addPod(Pods.pod("after").scheduler("plain").cpu("100m").build());
        await("a pod is bound while the PreBinds still hang", () -> bound("default/after"));
        assertTrue(f.cluster.bindings().stream().noneMatch(b -> b.podKey().startsWith("default/stuck-")));
        for (int i = 0; i < slots; i++) {
            String key = "default/stuck-" + i;
            await("the given-up binding failed its pod", () -> {
                ExplainView e = f.scheduler.explain(key);
                return e != null && "error".equals(e.outcome());
            });
        }
    }

    @Test
    void aPreEnqueueCallReturningLateIsAFault() throws Exception {
        CoarseClock clock = CoarseClock.manual(0);
        f = new SchedulerFixture(clock).withBasePlugins();
        Registration r = f.add(new LateGate(clock));
        f.scheduler.timeouts().set(ExtensionPoint.PRE_ENQUEUE, 100);
        f.cluster.addNode(Nodes.node("n1").cpu("4").build());
        f.start(SchedulerFixture.HEADER + SchedulerFixture.profile("default-scheduler", LateGate.NAME));
        f.cluster.addPod(Pods.pod("late").cpu("100m").build());
        awaitLateReturnCounted(r, PluginCall.PRE_ENQUEUE, LateGate.NAME);
    }

    @Test
    void aPreEnqueueCallHangingUnderTheQueueLockFailsLivenessUntilItReturns() throws Exception {
        CoarseClock clock = CoarseClock.manual(0);
        f = new SchedulerFixture(clock).withBasePlugins();
        CountDownLatch entered = new CountDownLatch(1);
        f.add(new HangingGate(entered, release));
        f.scheduler.timeouts().set(ExtensionPoint.PRE_ENQUEUE, 100);
        f.cluster.addNode(Nodes.node("n1").cpu("4").build());
        f.start(SchedulerFixture.HEADER + SchedulerFixture.profile("default-scheduler", "HangingGate"));
        assertEquals(null, f.scheduler.notLive());
        new Thread(() -> f.cluster.addPod(Pods.pod("held").cpu("100m").build()), "pod-adder").start();
        assertTrue(entered.await(20, TimeUnit.SECONDS), "PreEnqueue was called");
        clock.advance(250);
        await("not live", () -> f.scheduler.notLive() != null);
        String why = f.scheduler.notLive();
        assertTrue(
                why.startsWith("running PreEnqueue plugin \"HangingGate\": still running after ")
                        && why.endsWith("over the 100ms time-out for PreEnqueue, under the scheduling queue's lock,"
                                + " so no pod is queued or scheduled until it returns"),
                why);
        release.countDown();
        await("live again once the call returned", () -> f.scheduler.notLive() == null);
    }

    @Test
    void aQueueSortCallReturningLateIsAFault() throws Exception {
        CoarseClock clock = CoarseClock.manual(0);
        f = new SchedulerFixture(clock).withBasePlugins();
        CountDownLatch filtering = new CountDownLatch(1);
        HeldSort sort = HeldSort.late(clock, filtering, release);
        Registration r = startHoldingTheLoop(sort, filtering);
        // with the loop held, these two wait in the active queue, where the second is sorted against the first
        f.cluster.addPod(Pods.pod("a").cpu("100m").build());
        f.cluster.addPod(Pods.pod("b").cpu("100m").build());
        awaitLateReturnCounted(r, PluginCall.QUEUE_SORT, sort.name());
    }

    @Test
    void aQueueSortCallHangingUnderTheQueueLockFailsLivenessUntilItReturns() throws Exception {
        CoarseClock clock = CoarseClock.manual(0);
        f = new SchedulerFixture(clock).withBasePlugins();
        CountDownLatch filtering = new CountDownLatch(1);
        CountDownLatch sorting = new CountDownLatch(1);
        startHoldingTheLoop(HeldSort.hanging(sorting, filtering, release), filtering);
        // "b" is sorted against "a" in the active queue, under the queue's lock: the call hangs there
        new Thread(
                        () -> {
                            f.cluster.addPod(Pods.pod("a").cpu("100m").build());
                            f.cluster.addPod(Pods.pod("b").cpu("100m").build());
                        },
                        "pod-adder")
                .start();
        assertTrue(sorting.await(20, TimeUnit.SECONDS), "QueueSort was called");
        clock.advance(250);
        await("not live", () -> f.scheduler.notLive() != null);
        assertTrue(
                f.scheduler.notLive().startsWith("running QueueSort plugin \"HangingSort\": still running after "),
                f.scheduler.notLive());
        release.countDown();
        await("live again once the call returned", () -> f.scheduler.notLive() == null);
    }

    /**
     * Starts one profile whose QueueSort plugin is {@code sort} (every profile shares the queue, and
     * so its QueueSort plugin), with a time-out of 100 ms, and holds the loop in the Filter of the
     * pod "first", so that the pods added next meet in the active queue.
     */
    private Registration startHoldingTheLoop(HeldSort sort, CountDownLatch filtering) throws Exception {
        Registration r = f.add(sort);
        f.scheduler.timeouts().set(ExtensionPoint.QUEUE_SORT, 100);
        // the Filter call held is not to be given up while the clock moves on
        f.scheduler.timeouts().set(ExtensionPoint.FILTER, 0);
        f.cluster.addNode(Nodes.node("n1").cpu("4").build());
        f.start(SchedulerFixture.HEADER
                + SchedulerFixture.profile("default-scheduler", sort.name())
                        .replace("      - name: PrioritySort\n", ""));
        f.cluster.addPod(Pods.pod("first").cpu("100m").build());
        assertTrue(filtering.await(20, TimeUnit.SECONDS), "the loop reached Filter");
        return r;
    }

    /** The plugins below return 101 ms late on the manual clock, against a time-out of 100 ms. */
    private void awaitLateReturnCounted(Registration r, PluginCall call, String plugin) {
        String label = call.point().label();
        await(
                "the late return counted as a time-out",
                () -> f.scheduler.metrics().faults(plugin, label, SchedulerMetrics.FAULT_TIMEOUT) >= 1);
        await("counted against the plugin", () -> f.health.counters(r).failures() >= 1);
        assertEquals(
                call.describe(plugin) + ": took 101ms, over the 100ms time-out for " + label,
                f.health.counters(r).lastError());
    }

    /** A PreEnqueue plugin whose calls hang until {@code release}. */
    record HangingGate(CountDownLatch entered, CountDownLatch release) implements PreEnqueuePlugin {

        @Override
        public String name() {
            return "HangingGate";
        }

        @Override
        public Status preEnqueue(PodInfo pod) {
            entered.countDown();
            holdUntil(release);
            return Status.SUCCESS;
        }
    }

    private static void holdUntil(CountDownLatch release) {
        try {
            release.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A PreEnqueue plugin whose every call takes 101 ms on {@code clock}. */
    record LateGate(CoarseClock clock) implements PreEnqueuePlugin {
        static final String NAME = "LateGate";

        @Override
        public String name() {
            return NAME;
        }

        @Override
        public Status preEnqueue(PodInfo pod) {
            clock.advance(101);
            return Status.SUCCESS;
        }
    }

    /**
     * A QueueSort plugin named {@code name} whose every call runs {@code onSort} first; its Filter
     * holds the pod "first" until {@code release}, so that the pods after it meet in the active queue.
     */
    record HeldSort(String name, Runnable onSort, CountDownLatch filtering, CountDownLatch release)
            implements QueueSortPlugin, FilterPlugin {

        /** Every call takes 101 ms on {@code clock}. */
        static HeldSort late(CoarseClock clock, CountDownLatch filtering, CountDownLatch release) {
            return new HeldSort("LateSort", () -> clock.advance(101), filtering, release);
        }

        /** Every call hangs until {@code release}, once it said so on {@code sorting}. */
        static HeldSort hanging(CountDownLatch sorting, CountDownLatch filtering, CountDownLatch release) {
            return new HeldSort(
                    "HangingSort",
                    () -> {
                        sorting.countDown();
                        holdUntil(release);
                    },
                    filtering,
                    release);
        }

        @Override
        public boolean less(QueuedPodInfo a, QueuedPodInfo b) {
            onSort.run();
            return a.timestamp().isBefore(b.timestamp());
        }

        @Override
        public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
            if (pod.name().equals("first")) {
                filtering.countDown();
                holdUntil(release);
            }
            return Status.SUCCESS;
        }
    }

    private boolean bound(String podKey) {
        return f.cluster.bindings().stream().anyMatch(b -> b.podKey().equals(podKey));
    }

    /**
     * Serves every point, as plugin, transformer and extension; for the pods named "stuck*", the one
     * call it was made for blocks until the test ends. Everything else is neutral.
     */
    record HangAt(
            PluginCall at, String name, CountDownLatch release, AtomicInteger entered, AtomicReference<Handle> handle)
            implements AllPoints, BindPlugin {

        HangAt(PluginCall at, String name, CountDownLatch release) {
            this(at, name, release, new AtomicInteger(), new AtomicReference<>());
        }

        HangAt withHandle(Handle h) {
            handle.set(h);
            return this;
        }

        private <T> T hang(PluginCall call, PodInfo pod, T value) {
            maybeHang(call, pod);
            return value;
        }

        private void maybeHang(PluginCall call, PodInfo pod) {
            if (call != at || !pod.name().startsWith("stuck")) {
                return;
            }
            entered.incrementAndGet();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public Transformation beforePreFilter(CycleState state, PodInfo pod) {
            return hang(PluginCall.BEFORE_PRE_FILTER, pod, Transformation.UNCHANGED);
        }

        @Override
        public PreFilterResult preFilter(CycleState state, PodInfo pod, NodeInfoLister nodes) {
            return hang(PluginCall.PRE_FILTER, pod, PreFilterResult.ALL_NODES);
        }

        @Override
        public PreFilterExtensions preFilterExtensions() {
            return this;
        }

        @Override
        public Status afterPreFilter(CycleState state, PodInfo pod, PreFilterResult result) {
            return hang(PluginCall.AFTER_PRE_FILTER, pod, Status.SUCCESS);
        }

        @Override
        public Status addPod(CycleState state, PodInfo podToSchedule, PodInfo podToAdd, NodeInfo node) {
            return hang(PluginCall.ADD_POD, podToSchedule, Status.SUCCESS);
        }

        @Override
        public Status removePod(CycleState state, PodInfo podToSchedule, PodInfo podToRemove, NodeInfo node) {
            return hang(PluginCall.REMOVE_POD, podToSchedule, Status.SUCCESS);
        }

        @Override
        public Transformation beforeFilter(CycleState state, PodInfo pod, NodeInfo node) {
            return hang(PluginCall.BEFORE_FILTER, pod, Transformation.UNCHANGED);
        }

        @Override
        public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
            return hang(PluginCall.FILTER, pod, Status.SUCCESS);
        }

        @Override
        public PostFilterResult postFilter(CycleState state, PodInfo pod, NodeToStatus statuses) {
            maybeHang(PluginCall.POST_FILTER, pod);
            if (at == PluginCall.REMOVE_POD) {
                // as preemption does in its dry runs
                NodeInfo n1 = handle.get().snapshot().get("n1");
                handle.get().runPreFilterExtensionRemovePod(state, pod, pod, n1);
            }
            return PostFilterResult.of(Status.unschedulable());
        }

        @Override
        public void afterPostFilter(CycleState state, PodInfo pod, NodeToStatus statuses, PostFilterResult result) {
            maybeHang(PluginCall.AFTER_POST_FILTER, pod);
        }

        @Override
        public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
            return hang(PluginCall.PRE_SCORE, pod, Status.SUCCESS);
        }

        @Override
        public Transformation beforeScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
            return hang(PluginCall.BEFORE_SCORE, pod, Transformation.UNCHANGED);
        }

        @Override
        public long score(CycleState state, PodInfo pod, NodeInfo node) {
            return hang(PluginCall.SCORE, pod, 0);
        }

        @Override
        public ScoreExtensions scoreExtensions() {
            return this;
        }

        @Override
        public Status normalizeScore(CycleState state, PodInfo pod, NodeScores scores) {
            return hang(PluginCall.NORMALIZE_SCORE, pod, Status.SUCCESS);
        }

        @Override
        public Status reserve(CycleState state, PodInfo pod, String nodeName) {
            // Unreserve runs when Reserve rejects
            return at == PluginCall.UNRESERVE && pod.name().startsWith("stuck")
                    ? Status.unschedulable("rejected to reach Unreserve")
                    : hang(PluginCall.RESERVE, pod, Status.SUCCESS);
        }

        @Override
        public void unreserve(CycleState state, PodInfo pod, String nodeName) {
            maybeHang(PluginCall.UNRESERVE, pod);
        }

        @Override
        public PermitResult permit(CycleState state, PodInfo pod, String nodeName) {
            return hang(PluginCall.PERMIT, pod, PermitResult.ALLOW);
        }

        @Override
        public Status preBind(CycleState state, PodInfo pod, String nodeName) {
            return hang(PluginCall.PRE_BIND, pod, Status.SUCCESS);
        }

        @Override
        public Status bind(CycleState state, PodInfo pod, String nodeName) {
            maybeHang(PluginCall.BIND, pod);
            // DefaultBinder binds
            return Status.SKIP;
        }

        @Override
        public void postBind(CycleState state, PodInfo pod, String nodeName) {
            maybeHang(PluginCall.POST_BIND, pod);
        }
    }
}
