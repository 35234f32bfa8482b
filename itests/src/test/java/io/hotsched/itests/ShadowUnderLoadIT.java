package io.hotsched.itests;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hotsched.core.admin.ShadowView;
import io.hotsched.itest.plugins.ItestPicky;
import io.hotsched.itest.plugins.ItestVersion;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;

/**
 * Issue 24: version 2 of a plugin bundle, dropped with {@code Hotsched-Shadow: true}, runs in shadow
 * beside version 1 under load: version 1 binds every pod, the shadow names exactly the pods it would
 * have placed elsewhere and the node it refuses; its cost is bounded by the CPU share; then
 * {@code sched:promote} makes it serve, and no pod is lost or bound twice.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class ShadowUnderLoadIT extends KubeClusterSupport {

    static final String REFUSED = "node-7";
    static final String CONFIG = defaultProfile("""
            filter:
              enabled: [{name: ItestPicky}]
            preBind:
              enabled: [{name: ItestVersion}]
            """) + """
              pluginConfig:
              - name: ItestPicky
                args: {refuseFromVersion2: %s}
            """.formatted(REFUSED);
    static final int NODES = 100;
    /** Pods compared exactly (no limit), at a pace the shadow keeps up with. */
    static final int EXACT = 500;
    /** Pods created as fast as they can be, without and then with the shadow at its CPU share. */
    static final int BURST = 1000;

    static final int AFTER_PROMOTE = 300;

    @Override
    protected String schedulerYaml() {
        return CONFIG;
    }

    private void shadowLimits(int samplePercent, int cpuSharePercent) throws Exception {
        schedulerSettings(Map.of(
                "shadowSamplePercent", String.valueOf(samplePercent),
                "shadowCpuSharePercent", String.valueOf(cpuSharePercent)));
        String expected = "sample " + samplePercent + "% of pods, CPU share " + cpuSharePercent + "%";
        await("shadow limits " + expected, () -> admin.status().contains(expected));
    }

    private ShadowView shadow() {
        return admin.shadows().stream()
                .filter(v ->
                        v.plugin().equals(ItestPicky.NAME) && v.shadowVersion().equals("2.0.0"))
                .findFirst()
                .orElse(null);
    }

    /** Pods per second from the first to the last binding of {@code pods}. */
    private static double throughput(BindingRecorder recorder, String prefix) {
        List<BindingRecorder.Bound> bound = recorder.inOrder().stream()
                .filter(b -> b.pod().startsWith(prefix))
                .toList();
        long first = bound.get(0).seenNanos();
        long last = bound.get(bound.size() - 1).seenNanos();
        return (bound.size() - 1) * 1e9 / Math.max(1, last - first);
    }

    private static Set<String> on(BindingRecorder recorder, String prefix, String node) {
        return recorder.inOrder().stream()
                .filter(b -> b.pod().startsWith(prefix) && b.node().equals(node))
                .map(BindingRecorder.Bound::pod)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    public void versionTwoInShadowNamesThePodsItWouldMoveAndServesOncePromoted() throws Exception {
        loadCluster(NODES);
        byte[] plugin = itestPlugins();
        drop("itest-plugins-1.jar", TestBundles.withVersion(plugin, "1.0.0"));
        await("version 1 serves", () -> "1.0.0".equals(servingVersion(ItestPicky.NAME)));
        await("profile ready", () -> profileState("default-scheduler").equals("ready"));

        try (BindingRecorder recorder = new BindingRecorder(client, "load")) {
            try (PodLoad load = new PodLoad(client, "load", "a-", BURST, 1000, "default-scheduler")) {
                await("the burst without shadow created", Duration.ofSeconds(60), load::done);
                load.check();
                await("the burst without shadow bound", Duration.ofSeconds(60), () -> recorder.bound() == BURST);
            }
            double without = throughput(recorder, "a-");

            shadowLimits(100, 10_000);
            drop("itest-plugins-2.jar", TestBundles.withVersion(plugin, "2.0.0", Map.of("Hotsched-Shadow", "true")));
            await("version 2 in shadow", () -> "shadow".equals(pluginsState(ItestPicky.NAME, "2.0.0")));
            // every plugin of bundle 2 arrives in shadow, one registration after the other: the load starts after the
            // last
            awaitActive("io.hotsched.itest.plugins", "2.0.0");
            await("ItestVersion 2 in shadow", () -> "shadow".equals(pluginsState(ItestVersion.NAME, "2.0.0")));
            await("its shadow runs", () -> shadow() != null && shadow().state().equals("shadow"));
            assertEquals("1.0.0", servingVersion(ItestPicky.NAME));

            try (PodLoad load = new PodLoad(client, "load", "b-", EXACT, 100, "default-scheduler")) {
                await("the exact load created", Duration.ofSeconds(EXACT / 100 + 30), load::done);
                load.check();
                await("the exact load bound", Duration.ofSeconds(60), () -> recorder.bound() == BURST + EXACT);
            }
            try {
                await(
                        "every pod of the exact load compared or skipped",
                        () -> shadow().compared() + shadow().faults() + shadow().skippedCpu() + shadow().skippedQueue()
                                >= EXACT);
            } catch (AssertionError e) {
                System.out.println("issue 24 (shadow), not all compared: " + shadow() + "\n" + sh("sched:shadow"));
                Thread.getAllStackTraces().forEach((t, stack) -> {
                    if (t.getName().startsWith("hotsched-shadow")) {
                        System.out.println(t + " " + t.getState() + "\n  "
                                + java.util.Arrays.stream(stack)
                                        .map(Object::toString)
                                        .collect(Collectors.joining("\n  ")));
                    }
                });
                throw e;
            }
            ShadowView exact = shadow();
            System.out.println("issue 24 (shadow), the figures: " + exact);
            Set<String> moved = on(recorder, "b-", REFUSED);
            Set<String> named = exact.last().stream()
                    .map(d -> d.pod().substring("load/".length()))
                    .collect(Collectors.toCollection(TreeSet::new));
            String report = sh("sched:shadow " + ItestPicky.NAME);
            System.out.printf(
                    "issue 24 (shadow): %d pods compared, %d agreed, %d faults, %d bound on %s by 1.0.0, named %s%n%s%n",
                    exact.compared(), exact.agreed(), exact.faults(), moved.size(), REFUSED, named, report);
            assertEquals("faults", 0, exact.faults());
            assertEquals("skipped", 0, exact.skippedCpu() + exact.skippedQueue());
            assertEquals("compared", EXACT, exact.compared());
            assertTrue("some pods went to " + REFUSED + " under 1.0.0", !moved.isEmpty());
            assertEquals("the pods the shadow would move: exactly those 1.0.0 put on " + REFUSED, moved, named);
            for (ShadowView.Disagreement d : exact.last()) {
                assertEquals(REFUSED, d.servingNode());
                assertEquals(
                        List.of(REFUSED + ": passes | refuses (" + ItestPicky.NAME + ": node refused by "
                                + ItestPicky.NAME + " 2.0.0)"),
                        d.nodes());
                assertTrue(report, report.contains(d.pod()));
            }
            assertEquals(
                    Map.of(
                            "shadow refuses: " + ItestPicky.NAME + ": node refused by " + ItestPicky.NAME + " 2.0.0",
                            (long) moved.size()),
                    exact.disagreementsByReason());
            assertTrue("sched:shadow lists it", sh("sched:shadow").contains(ItestPicky.NAME));

            shadowLimits(100, 25);
            long compared = shadow().compared();
            long skipped = shadow().skippedCpu() + shadow().skippedQueue();
            long cpu = shadow().shadowCpuMillis();
            try (PodLoad load = new PodLoad(client, "load", "c-", BURST, 1000, "default-scheduler")) {
                await("the burst with shadow created", Duration.ofSeconds(60), load::done);
                load.check();
                await(
                        "the burst with shadow bound",
                        Duration.ofSeconds(60),
                        () -> recorder.bound() == 2 * BURST + EXACT);
            }
            double with = throughput(recorder, "c-");
            ShadowView burst = shadow();
            System.out.printf(
                    "issue 24 (shadow cost): %d pods in a burst, without shadow %.0f pods/s, with the shadow at a 25%% CPU"
                            + " share %.0f pods/s (%.1f%%); the shadow compared %d, skipped %d, took %d ms CPU%n",
                    BURST,
                    without,
                    with,
                    100 * (with - without) / without,
                    burst.compared() - compared,
                    burst.skippedCpu() + burst.skippedQueue() - skipped,
                    burst.shadowCpuMillis() - cpu);

            String promoted = sh("sched:promote " + ItestPicky.NAME) + sh("sched:promote " + ItestVersion.NAME);
            assertTrue(promoted, promoted.contains("Promoted " + ItestPicky.NAME));
            await("version 2 serves", () -> "2.0.0".equals(servingVersion(ItestPicky.NAME)));
            await("version 2 serves ItestVersion", () -> "2.0.0".equals(servingVersion(ItestVersion.NAME)));
            assertEquals("standby", pluginsState(ItestPicky.NAME, "1.0.0"));
            try (PodLoad load = new PodLoad(client, "load", "d-", AFTER_PROMOTE, 100, "default-scheduler")) {
                await("the load after promote created", Duration.ofSeconds(AFTER_PROMOTE / 100 + 30), load::done);
                load.check();
            }
            int all = 2 * BURST + EXACT + AFTER_PROMOTE;
            await("every pod bound", Duration.ofSeconds(60), () -> recorder.bound() == all);
            assertEquals("bound twice", 0, recorder.boundTwice());
            assertEquals("nothing on " + REFUSED + " once version 2 serves", Set.of(), on(recorder, "d-", REFUSED));
            long wrongVersion = recorder.inOrder().stream()
                    .filter(b -> !b.pod().startsWith("d-") && !"1.0.0".equals(b.annotation(ItestVersion.ANNOTATION))
                            || b.pod().startsWith("d-") && !"2.0.0".equals(b.annotation(ItestVersion.ANNOTATION)))
                    .count();
            assertEquals("pods bound by another version than the serving one", 0, wrongVersion);
            System.out.printf("issue 24 (promote): %d pods, %d bound, 0 lost%n", all, recorder.bound());
        }
    }
}
