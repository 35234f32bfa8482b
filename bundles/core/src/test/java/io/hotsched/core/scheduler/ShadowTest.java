package io.hotsched.core.scheduler;

import static io.hotsched.core.support.SchedulerFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeInfoLister;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PreFilterPlugin;
import io.hotsched.api.framework.PreFilterResult;
import io.hotsched.api.framework.ReservePlugin;
import io.hotsched.api.framework.StateData;
import io.hotsched.api.framework.StateKey;
import io.hotsched.api.framework.Status;
import io.hotsched.core.config.ExtensionPoint;
import io.hotsched.core.registry.Registration;
import io.hotsched.core.runtime.ShadowResult;
import io.hotsched.core.support.SchedulerFixture;
import io.hotsched.core.support.TestPlugins;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.OnePoint;
import io.hotsched.testing.Pods;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A plugin version in shadow: it decides beside the serving version for every pod, acts on nothing,
 * and names the pods and nodes where it would decide otherwise; promoting it makes it serve.
 */
class ShadowTest {

    private static final String CONFIG = SchedulerFixture.HEADER
            + SchedulerFixture.profile("default-scheduler", "Picky", "Want\n        weight: 10");
    private static final int PODS = 12;

    private final SchedulerFixture f = new SchedulerFixture().withBasePlugins();
    private final AtomicInteger reservedByTwo = new AtomicInteger();
    private final AtomicInteger servingStateSeen = new AtomicInteger();

    @AfterEach
    void close() {
        f.close();
    }

    record Seen(String version) implements StateData {
        @Override
        public StateData copy() {
            return this;
        }
    }

    private static final StateKey<Seen> SEEN = StateKey.of("test/Picky", Seen.class);

    /** Version 1 lets every node through; version 2 refuses {@code refused} too; {@code faulty} throws in Filter. */
    final class Picky implements PreFilterPlugin, FilterPlugin, ReservePlugin {
        final String version;
        final String refused;
        final boolean faulty;

        Picky(String version, String refused, boolean faulty) {
            this.version = version;
            this.refused = refused;
            this.faulty = faulty;
        }

        @Override
        public String name() {
            return "Picky";
        }

        @Override
        public PreFilterResult preFilter(CycleState state, PodInfo pod, NodeInfoLister nodes) {
            Seen before = state.readOrNull(SEEN);
            if (before != null && !before.version().equals(version)) {
                servingStateSeen.incrementAndGet();
            }
            state.write(SEEN, new Seen(version));
            return null;
        }

        @Override
        public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
            if (faulty) {
                throw new IllegalStateException("version " + version + " is broken");
            }
            if (!version.equals(state.readOrNull(SEEN).version())) {
                servingStateSeen.incrementAndGet();
            }
            return node.name().equals(refused) ? Status.unschedulable("refused by " + version) : Status.SUCCESS;
        }

        @Override
        public Status reserve(CycleState state, PodInfo pod, String nodeName) {
            if (version.startsWith("2")) {
                reservedByTwo.incrementAndGet();
            }
            return Status.SUCCESS;
        }

        @Override
        public void unreserve(CycleState state, PodInfo pod, String nodeName) {}
    }

    private Registration picky(String version, String refused, boolean faulty, boolean shadow) {
        Registration r = TestPlugins.registration(
                "Picky", TestPlugins.factory(h -> new Picky(version, refused, faulty)), version);
        f.scheduler.pluginAdded(r, shadow);
        return r;
    }

    /** Pod i wants node n(i % 4 + 1): "Want" scores it 100, every other node 0. */
    private void start() throws Exception {
        f.add(
                "Want",
                TestPlugins.factory(h -> new OnePoint.Score(
                        "Want", (state, pod, n) -> n.name().equals(pod.labels().get("want")) ? 100L : 0L)),
                "1.0.0");
        for (int i = 1; i <= 4; i++) {
            f.cluster.addNode(Nodes.node("n" + i).cpu("100").build());
        }
        f.start(CONFIG);
    }

    private void addPods(String prefix, int n) {
        for (int i = 0; i < n; i++) {
            f.cluster.addPod(Pods.pod(prefix + i)
                    .cpu("100m")
                    .label("want", "n" + (i % 4 + 1))
                    .build());
        }
    }

    private ShadowFigures figures() {
        return f.scheduler.shadows().figures().stream()
                .filter(x -> x.plugin().equals("Picky"))
                .findFirst()
                .orElseThrow();
    }

    private void awaitBound(int n) throws InterruptedException {
        await(n + " pods bound", () -> f.cluster.bindings().size() >= n);
        assertTrue(f.scheduler.shadows().awaitIdle(10_000), "the shadow thread finished");
    }

    @Test
    void theShadowNamesExactlyThePodsWhoseChoiceItWouldChangeAndActsOnNothing() throws Exception {
        picky("1.0.0", null, false, false);
        picky("2.0.0", "n3", false, true);
        start();
        addPods("p", PODS);
        awaitBound(PODS);

        Map<String, String> bound =
                f.cluster.bindings().stream().collect(Collectors.toMap(b -> b.podKey(), b -> b.nodeName()));
        Set<String> onThree = new TreeSet<>();
        bound.forEach((pod, node) -> {
            if (node.equals("n3")) {
                onThree.add(pod);
            }
        });
        assertEquals(PODS / 4, onThree.size(), "version 1 serves: the pods that want n3 are there " + bound);
        ShadowFigures fig = figures();
        assertEquals("1.0.0", fig.servingVersion());
        assertEquals("2.0.0", fig.shadowVersion());
        assertEquals(PODS, fig.compared());
        assertEquals(PODS - onThree.size(), fig.agreed());
        assertEquals(0, fig.faults());
        Set<String> disagreeing = new TreeSet<>();
        for (ShadowResult r : fig.lastDisagreements()) {
            disagreeing.add(r.pod());
            assertEquals("n3", r.servingChoice());
            assertTrue(!"n3".equals(r.shadowChoice()) && r.shadowChoice() != null, r.toString());
            assertEquals(1, r.filterDiffs().size(), r.toString());
            ShadowResult.NodeVerdict v = r.filterDiffs().get(0);
            assertEquals("n3", v.node());
            assertNull(v.serving());
            assertEquals("Picky: refused by 2.0.0", v.shadow());
        }
        assertEquals(onThree, disagreeing);
        assertEquals(
                Map.of("shadow refuses: Picky: refused by 2.0.0", (long) onThree.size()), fig.disagreementsByReason());
        assertEquals(0, reservedByTwo.get(), "the shadow reserved nothing");
        assertEquals(0, servingStateSeen.get(), "no version saw the other's cycle state");
    }

    @Test
    void promoteMakesTheShadowServeAndStopLeavesItStandingBy() throws Exception {
        Registration one = picky("1.0.0", null, false, false);
        Registration two = picky("2.0.0", "n3", false, false);
        start();
        assertEquals(two.serviceId(), f.registry.serving("Picky").orElseThrow().serviceId());
        IllegalArgumentException none = assertThrows(
                IllegalArgumentException.class, () -> f.scheduler.shadows().start("Picky", "3.0.0"));
        assertEquals("plugin Picky has no version 3.0.0; registered: [2.0.0, 1.0.0]", none.getMessage());

        f.scheduler.shadows().start("Picky", "2.0.0");
        assertEquals(one.serviceId(), f.registry.serving("Picky").orElseThrow().serviceId());
        addPods("a", 4);
        awaitBound(4);
        assertEquals(1, figures().disagreed());

        f.scheduler.shadows().promote("Picky");
        assertEquals(two.serviceId(), f.registry.serving("Picky").orElseThrow().serviceId());
        assertTrue(f.registry.shadow("Picky").isEmpty());
        addPods("b", 4);
        awaitBound(8);
        assertTrue(
                f.cluster.bindings().stream()
                        .noneMatch(b -> b.podKey().startsWith("default/b")
                                && b.nodeName().equals("n3")),
                "version 2 serves: nothing more on n3 " + f.cluster.bindings());
        assertEquals(PODS / 3, reservedByTwo.get(), "version 2 reserved the four pods it placed");

        f.scheduler.shadows().start("Picky", "1.0.0");
        f.scheduler.shadows().stop("Picky");
        assertEquals(two.serviceId(), f.registry.serving("Picky").orElseThrow().serviceId(), "2.0.0 still serves");
        assertTrue(f.registry.shadow("Picky").isEmpty());
        f.scheduler.shadows().start("Picky", "2.0.0");
        f.scheduler.shadows().stop("Picky");
        assertEquals(
                one.serviceId(),
                f.registry.serving("Picky").orElseThrow().serviceId(),
                "a stopped shadow stands by even when it is the higher version");
    }

    @Test
    void aFaultyShadowIsQuarantinedWhileTheServingVersionBindsEveryPod() throws Exception {
        picky("1.0.0", null, false, false);
        Registration two = picky("2.0.0", null, true, true);
        start();
        addPods("p", PODS);
        awaitBound(PODS);
        ShadowFigures fig = figures();
        assertTrue(fig.faults() >= f.health.threshold(), "faults until quarantined: " + fig.faults());
        assertTrue(
                fig.lastFault().endsWith("running \"Picky\" filter plugin: version 2.0.0 is broken"), fig.lastFault());
        assertTrue(f.health.quarantined(two));
        await(
                "the quarantined shadow is dropped",
                () -> f.scheduler
                        .profiles()
                        .profile("default-scheduler")
                        .framework()
                        .shadows()
                        .isEmpty());
        assertEquals(PODS, f.cluster.bindings().size());
    }

    private ShadowFigures figures(String plugin) {
        return f.scheduler.shadows().figures().stream()
                .filter(x -> x.plugin().equals(plugin))
                .findFirst()
                .orElse(null);
    }

    private boolean inShadow(String plugin) {
        return f.scheduler.profiles().profile("default-scheduler").framework().shadows().stream()
                .anyMatch(s -> s.plugin().equals(plugin));
    }

    @Test
    void aShadowCallPastItsTimeOutGetsTheShadowThreadReplacedAndTheOtherShadowsGoOn() throws Exception {
        f.scheduler.timeouts().set(ExtensionPoint.FILTER, 100);
        TestPlugins.Hold hold = new TestPlugins.Hold();
        picky("1.0.0", null, false, false);
        Registration hanging = TestPlugins.registration(
                "Picky",
                TestPlugins.factory(h -> new OnePoint.Filter("Picky", (state, pod, node) -> {
                    if (pod.name().equals("stuck")) {
                        hold.here();
                    }
                    return Status.SUCCESS;
                })),
                "2.0.0");
        f.scheduler.pluginAdded(hanging, true);
        start();
        f.scheduler.pluginAdded(
                TestPlugins.registration(
                        "Want", TestPlugins.factory(h -> new OnePoint.Score("Want", (state, pod, n) -> 0L)), "2.0.0"),
                true);
        await("both in shadow", () -> inShadow("Picky") && inShadow("Want"));

        f.cluster.addPod(Pods.pod("stuck").cpu("100m").build());
        assertTrue(hold.awaitEntered());
        await(
                "the hanging version left out of shadow while its call runs",
                () -> f.health.stuck(hanging) && !inShadow("Picky"));

        addPods("p", 4);
        await("the pods bound", () -> f.cluster.bindings().size() == 5);
        await(
                "the other shadow compared them on a new shadow thread",
                () -> figures("Want") != null && figures("Want").compared() >= 4);

        hold.release.countDown();
        await(
                "the late call a fault of the version in shadow",
                () -> figures("Picky") != null && figures("Picky").faults() == 1);
        assertTrue(
                figures("Picky").lastFault().startsWith("default/stuck: running \"Picky\" filter plugin: took "),
                figures("Picky").lastFault());
        assertTrue(figures("Picky").lastFault().endsWith("over the 100ms time-out for Filter"));
        await("back in shadow once its call returned", () -> !f.health.stuck(hanging) && inShadow("Picky"));
        addPods("q", 4);
        await("compared again", () -> figures("Picky").compared() >= 4);
        await(
                "every pod bound, by the serving version alone",
                () -> f.cluster.bindings().size() == 9);
        assertTrue(f.scheduler.shadows().awaitIdle(10_000), "the stuck thread's work done too");
    }

    @Test
    void aSampleRateOfZeroRunsNoShadow() throws Exception {
        picky("1.0.0", null, false, false);
        picky("2.0.0", "n3", false, true);
        f.scheduler.shadows().setLimits(0, 25);
        start();
        addPods("p", 4);
        awaitBound(4);
        assertTrue(f.scheduler.shadows().figures().stream().allMatch(x -> x.compared() + x.faults() == 0));
    }
}
