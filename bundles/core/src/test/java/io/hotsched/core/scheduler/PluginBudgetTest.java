package io.hotsched.core.scheduler;

import static io.hotsched.core.support.SchedulerFixture.await;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.api.framework.Status;
import io.hotsched.core.registry.Registration;
import io.hotsched.core.support.SchedulerFixture;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.OnePoint;
import io.hotsched.testing.Pods;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A plugin that uses more CPU time or heap than the budget allows is quarantined by name; a plugin
 * next to it that uses little is not, and both are accounted in the metrics.
 */
class PluginBudgetTest {

    private final SchedulerFixture f = new SchedulerFixture().withBasePlugins();
    private static volatile Object sink;

    @AfterEach
    void close() {
        f.close();
    }

    /** Spins for a millisecond of wall time per node: CPU time of its thread. */
    private static OnePoint.Filter burner() {
        return new OnePoint.Filter("Burner", (state, pod, node) -> {
            long until = System.nanoTime() + 1_000_000;
            long x = 0;
            while (System.nanoTime() < until) {
                x += x * 31 + 7;
            }
            sink = x;
            return Status.SUCCESS;
        });
    }

    /** Allocates {@code bytes} per node. */
    private static OnePoint.Filter hog(int bytes) {
        return new OnePoint.Filter("Hog", (state, pod, node) -> {
            sink = new byte[bytes];
            return Status.SUCCESS;
        });
    }

    private static OnePoint.Filter modest() {
        return new OnePoint.Filter("Modest", (state, pod, node) -> Status.SUCCESS);
    }

    private void load(int pods, String... plugins) throws Exception {
        for (int i = 0; i < 10; i++) {
            f.cluster.addNode(Nodes.node("n" + i).cpu("64").pods(500).build());
        }
        for (int i = 0; i < pods; i++) {
            f.cluster.addPod(Pods.pod("p" + i).cpu("10m").build());
        }
        f.start(SchedulerFixture.withPlugins(plugins));
    }

    private String quarantineMessage(Registration r) {
        await(r.name() + " quarantined", () -> f.health.quarantined(r));
        return f.health.counters(r).lastError();
    }

    /**
     * Runs {@code culprit} beside Modest under {@code cpuMillis} and {@code bytes} per second over 1 s
     * windows: the culprit is quarantined with a message matching {@code message}, Modest is not,
     * and at Filter the culprit's figure ({@code index} 0: CPU nanos, 1: bytes) is over {@code least}
     * and over {@code ratio} times Modest's.
     */
    private void quarantinedBesideModest(
            OnePoint.Filter culprit, long cpuMillis, long bytes, String message, int index, long least, long ratio)
            throws Exception {
        Registration r = f.add(culprit);
        Registration modest = f.add(modest());
        f.scheduler.budget().set(cpuMillis, bytes, 1, 1);
        load(1000, culprit.name(), "Modest");

        String said = quarantineMessage(r);
        assertTrue(said.matches(message), said);
        assertFalse(f.health.quarantined(modest));
        long used =
                f.scheduler.metrics().pluginUsage.totals().get(culprit.name()).get("Filter")[index];
        long modestUsed =
                f.scheduler.metrics().pluginUsage.totals().get("Modest").get("Filter")[index];
        assertTrue(used > least, culprit.name() + " used " + used);
        assertTrue(modestUsed * ratio < used, "Modest used " + modestUsed + ", " + culprit.name() + " " + used);
        await("profile paused", () -> f.describe().equals("paused: waiting for plugin(s) " + culprit.name()));
    }

    @Test
    void aPluginBurningCpuIsQuarantinedByNameAndAModestOneIsNot() throws Exception {
        quarantinedBesideModest(
                burner(),
                100,
                0,
                "Burner used \\d+ms of CPU time in the last \\d+\\.\\ds, over the limit of 100ms per second "
                        + "\\(pluginCpuMillisPerSecond\\)",
                0,
                100_000_000L,
                20);
        StringBuilder text = new StringBuilder();
        f.scheduler.metrics().writeText(text);
        assertTrue(
                text.toString()
                        .contains("hotsched_plugin_cpu_seconds_total{plugin=\"Burner\",extension_point=\"Filter\"} "),
                text.toString());
    }

    @Test
    void aPluginAllocatingALotIsQuarantinedByNameAndAModestOneIsNot() throws Exception {
        quarantinedBesideModest(
                hog(1 << 20),
                0,
                64L << 20,
                "Hog allocated \\d+ MiB in the last \\d+\\.\\ds, over the limit of 64 MiB per second "
                        + "\\(pluginAllocatedMegabytesPerSecond\\)",
                1,
                64L << 20,
                100);
    }

    @Test
    void sampledAccountingEstimatesTheWholeWithoutQuarantiningBelowTheLimits() throws Exception {
        Registration hog = f.add(hog(64 << 10));
        f.scheduler.budget().set(0, 0, 1, 16);
        load(300, "Hog");
        await("all bound", () -> f.cluster.bindings().size() == 300);
        // every pod passes Filter on each of the 10 nodes (no node is full): 3000 calls, 187.5 MiB in all
        long kib = f.scheduler.metrics().pluginUsage.totals().get("Hog").get("Filter")[1] >> 10;
        assertTrue(kib > 192_000 / 2 && kib < 192_000 * 2, "estimated " + kib + " KiB of 192 000");
        assertFalse(f.health.quarantined(hog));
    }

    @Test
    void aBudgetOutOfRangeIsRefusedNamingTheValues() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> f.scheduler.budget().set(-1, 0, 60, 1));
        assertTrue(e.getMessage().contains("-1ms/s"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> f.scheduler.budget().set(0, 0, 60, 0));
    }
}
