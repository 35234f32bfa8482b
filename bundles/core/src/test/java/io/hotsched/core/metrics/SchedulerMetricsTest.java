package io.hotsched.core.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.api.framework.Code;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SchedulerMetricsTest {

    @Test
    void valuesLandInTheFirstBucketWhoseBoundHoldsThem() {
        Histogram h = new Histogram(Histogram.exponential(0.001, 2, 3));
        h.observe(0.0005);
        h.observe(0.001);
        h.observe(0.0015);
        h.observe(0.004);
        h.observe(7);
        assertEquals("[2, 3, 4, 5]", Arrays.toString(h.cumulative()));
        assertEquals(7.007, h.sum(), 1e-9);
    }

    @Test
    void bucketsAreUpstreams() {
        assertEquals(
                15,
                new SchedulerMetrics().attemptDuration.with("scheduled", "p").bounds().length);
        double[] plugin = new SchedulerMetrics()
                .pluginExecutionDuration
                .with("a", "b", "c")
                .bounds();
        assertEquals(20, plugin.length);
        assertEquals(0.00001 * Math.pow(1.5, 19), plugin[19], 1e-12);
    }

    @Test
    void textHasUpstreamNamesLabelsAndCumulativeBuckets() {
        SchedulerMetrics m = new SchedulerMetrics();
        m.attemptDuration.with(SchedulerMetrics.SCHEDULED, "default-scheduler").observe(0.003);
        m.attemptDuration.with(SchedulerMetrics.SCHEDULED, "default-scheduler").observe(0.0001);
        m.extensionPointDuration
                .with("PreFilter", SchedulerMetrics.status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE), "p\"1")
                .observe(0.5);
        m.pendingPodsFrom(() -> Map.of("active", 3, "backoff", 1));
        StringBuilder b = new StringBuilder();
        m.writeText(b);
        List<String> lines = b.toString().lines().toList();
        assertTrue(lines.contains("# TYPE scheduler_scheduling_attempt_duration_seconds histogram"), b.toString());
        assertTrue(
                lines.contains(
                        "scheduler_scheduling_attempt_duration_seconds_bucket{result=\"scheduled\",profile=\"default-scheduler\",le=\"0.001\"} 1"));
        assertTrue(
                lines.contains(
                        "scheduler_scheduling_attempt_duration_seconds_bucket{result=\"scheduled\",profile=\"default-scheduler\",le=\"0.004\"} 2"));
        assertTrue(
                lines.contains(
                        "scheduler_scheduling_attempt_duration_seconds_bucket{result=\"scheduled\",profile=\"default-scheduler\",le=\"+Inf\"} 2"));
        assertTrue(
                lines.contains(
                        "scheduler_scheduling_attempt_duration_seconds_count{result=\"scheduled\",profile=\"default-scheduler\"} 2"));
        assertTrue(lines.contains(
                "scheduler_schedule_attempts_total{profile=\"default-scheduler\",result=\"scheduled\"} 2"));
        assertTrue(
                lines.contains(
                        "scheduler_framework_extension_point_duration_seconds_count{extension_point=\"PreFilter\","
                                + "status=\"UnschedulableAndUnresolvable\",profile=\"p\\\"1\"} 1"),
                b.toString());
        assertTrue(lines.contains("scheduler_pending_pods{queue=\"active\"} 3"));
        // a histogram without observations is not written
        assertTrue(lines.stream().noneMatch(l -> l.startsWith("scheduler_plugin_execution_duration_seconds_count")));
    }
}
