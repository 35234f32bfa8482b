package io.hotsched.core.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.core.metrics.SchedulerMetrics;
import io.hotsched.core.registry.PluginRegistry;
import io.hotsched.core.support.SchedulerFixture;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Extension points are timed on every attempt, plugin calls only on the sampled ones, with upstream's labels. */
class FrameworkMetricsTest {

    private final SchedulerMetrics metrics = new SchedulerMetrics();

    private FrameworkImpl framework() throws Exception {
        PluginRegistry registry =
                TestFrameworks.registry(TestFrameworks.plugin("A", h -> new FrameworkBuilderTest.PF("A")));
        String yaml = SchedulerFixture.HEADER + "- schedulerName: p1\n  plugins:\n"
                + "    multiPoint:\n      enabled:\n      - name: PrioritySort\n      - name: A\n      - name: DefaultBinder\n"
                + "      disabled:\n      - name: \"*\"\n";
        FrameworkServices plain = TestFrameworks.services(1);
        FrameworkServices services = new FrameworkServices(
                plain.parallelizer(),
                null,
                plain.snapshot(),
                plain.nominatedPods(),
                plain.timer(),
                plain.timeouts(),
                null,
                plain.objects(),
                null,
                metrics,
                (plugin, fault) -> {},
                plain.reservations(),
                SchedulerHooks.none());
        return TestFrameworks.build(yaml, registry, services);
    }

    private void attempt(FrameworkImpl fw, boolean timesPlugins) {
        CycleState state = new CycleState();
        state.write(Attempt.KEY, new Attempt(timesPlugins));
        NodeInfo node = new NodeInfo(Nodes.node("n1").cpu("4").build());
        PodInfo pod = Pods.pod("p").cpu("100m").info();
        assertTrue(fw.runPreFilter(state, pod, new Snapshot(List.of(node)))
                .status()
                .isSuccess());
        assertTrue(fw.runFilterPluginsWithNominatedPods(state, pod, node).isSuccess());
        assertTrue(fw.runScore(state, pod, List.of(node), new ScoreTable()).isSuccess());
    }

    private String text() {
        StringBuilder b = new StringBuilder();
        metrics.writeText(b);
        return b.toString();
    }

    @Test
    void anUnsampledAttemptTimesItsExtensionPointsOnly() throws Exception {
        attempt(framework(), false);
        String t = text();
        assertTrue(
                t.contains(
                        "scheduler_framework_extension_point_duration_seconds_count{extension_point=\"PreFilter\",status=\"Success\","
                                + "profile=\"p1\"} 1"),
                t);
        assertTrue(
                t.contains(
                        "scheduler_framework_extension_point_duration_seconds_count{extension_point=\"Score\",status=\"Success\","
                                + "profile=\"p1\"} 1"),
                t);
        // as upstream: Filter runs per node and has no extension-point histogram
        assertFalse(t.contains("extension_point=\"Filter\",status=\"Success\",profile"), t);
        assertFalse(t.contains("scheduler_plugin_execution_duration_seconds_count"), t);
    }

    @Test
    void aSampledAttemptTimesEachPluginCall() throws Exception {
        FrameworkImpl fw = framework();
        attempt(fw, true);
        attempt(fw, true);
        String t = text();
        for (String point : List.of("PreFilter", "Filter", "Score")) {
            String line = "scheduler_plugin_execution_duration_seconds_count{plugin=\"A\",extension_point=\"" + point
                    + "\",status=\"Success\"} 2";
            assertTrue(t.contains(line), line + " in\n" + t);
        }
        assertEquals(
                2,
                t.lines()
                        .filter(
                                l -> l.startsWith(
                                        "scheduler_framework_extension_point_duration_seconds_count{extension_point=\"PreFilter\""))
                        .mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1)))
                        .sum());
    }
}
