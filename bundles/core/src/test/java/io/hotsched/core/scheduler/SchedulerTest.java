package io.hotsched.core.scheduler;

import static io.hotsched.core.support.SchedulerFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.hotsched.core.admin.ExplainView;
import io.hotsched.core.support.SchedulerFixture;
import io.hotsched.testing.InMemoryCluster;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SchedulerTest {

    private final SchedulerFixture f = new SchedulerFixture().withBasePlugins();

    @AfterEach
    void close() {
        f.close();
    }

    private String metricsText() {
        StringBuilder b = new StringBuilder();
        f.scheduler.metrics().writeText(b);
        return b.toString();
    }

    @Test
    void pendingPodsAreBoundOnceEach() throws Exception {
        f.cluster.addNode(Nodes.node("n1").cpu("4").build());
        f.cluster.addNode(Nodes.node("n2").cpu("4").build());
        for (int i = 0; i < 20; i++) {
            f.cluster.addPod(Pods.pod("p" + i).cpu("300m").build());
        }
        f.start(SchedulerFixture.BASE);
        await("20 bindings", () -> f.cluster.bindings().size() == 20);
        Map<String, Long> perPod = f.cluster.bindings().stream()
                .collect(Collectors.groupingBy(InMemoryCluster.Binding::podKey, Collectors.counting()));
        assertEquals(20, perPod.size());
        assertTrue(perPod.values().stream().allMatch(c -> c == 1));
        // least allocated spreads them: 10 each
        Map<String, Long> perNode = f.cluster.bindings().stream()
                .collect(Collectors.groupingBy(InMemoryCluster.Binding::nodeName, Collectors.counting()));
        assertEquals(Map.of("n1", 10L, "n2", 10L), perNode);
        await(
                "events recorded",
                () -> f.cluster.events().stream()
                                .filter(e -> "Scheduled".equals(e.getReason()))
                                .count()
                        == 20);
        await(
                "20 scheduled attempts counted",
                () -> metricsText()
                        .contains(
                                "scheduler_schedule_attempts_total{profile=\"default-scheduler\",result=\"scheduled\"} 20\n"));
        assertTrue(
                metricsText()
                        .contains(
                                "scheduler_framework_extension_point_duration_seconds_count{extension_point=\"Bind\",status=\"Success\","
                                        + "profile=\"default-scheduler\"} 20\n"),
                metricsText());
        assertTrue(f.cluster.events().stream()
                .anyMatch(e -> e.getMessage().startsWith("Successfully assigned default/p")));
    }

    @Test
    void podsForOtherSchedulersAreLeftAlone() throws Exception {
        f.cluster.addNode(Nodes.node("n1").cpu("4").build());
        f.cluster.addPod(
                Pods.pod("theirs").scheduler("other-scheduler").cpu("100m").build());
        f.cluster.addPod(Pods.pod("ours").cpu("100m").build());
        f.start(SchedulerFixture.BASE);
        await("ours bound", () -> f.cluster.bindings().size() == 1);
        // both pods reached the scheduler; "theirs" first: had it been queued, it would be tried by now
        f.cluster.awaitDelivered();
        await("the attempt on ours counted", () -> f.scheduler.counters().get("scheduled") == 1);
        assertEquals(List.of(), f.scheduler.queue().entries(), "nothing left to schedule");
        assertEquals(Map.of("scheduled", 1L, "unschedulable", 0L, "errors", 0L), f.scheduler.counters());
        assertEquals(List.of(new InMemoryCluster.Binding("default/ours", "n1")), f.cluster.bindings());
        assertNull(f.cluster.pod("default", "theirs").getSpec().getNodeName());
    }

    @Test
    void unschedulablePodGetsConditionAndEventWithUpstreamText() throws Exception {
        f.cluster.addNode(Nodes.node("n1").cpu("1").build());
        f.cluster.addNode(Nodes.node("n2").cpu("1").build());
        f.cluster.addPod(Pods.pod("big").cpu("2").build());
        f.start(SchedulerFixture.BASE);
        String expected = "0/2 nodes are available: 2 Insufficient cpu.";
        await("condition set", () -> {
            Pod p = f.cluster.pod("default", "big");
            return p.getStatus() != null
                    && p.getStatus().getConditions() != null
                    && !p.getStatus().getConditions().isEmpty();
        });
        var c = f.cluster.pod("default", "big").getStatus().getConditions().get(0);
        assertEquals("PodScheduled", c.getType());
        assertEquals("False", c.getStatus());
        assertEquals("Unschedulable", c.getReason());
        assertEquals(expected, c.getMessage());
        await("event", () -> f.cluster.events().stream().anyMatch(e -> "FailedScheduling".equals(e.getReason())));
        assertEquals(
                expected,
                f.cluster.events().stream()
                        .filter(e -> "FailedScheduling".equals(e.getReason()))
                        .findFirst()
                        .get()
                        .getMessage());
        await(
                "the attempt counted",
                () -> metricsText()
                        .contains(
                                "scheduler_schedule_attempts_total{profile=\"default-scheduler\",result=\"unschedulable\"} "));
        ExplainView e = f.scheduler.explain("default/big");
        assertEquals("unschedulable", e.outcome());
        assertEquals(
                Map.of("n1", "NodeResourcesFit: Insufficient cpu", "n2", "NodeResourcesFit: Insufficient cpu"),
                e.rejections());
    }

    /** Starts with pod big (2 cpu) and node n1 (1 cpu); returns once big is unschedulable. */
    private void startWithAPodTooBig() throws Exception {
        f.cluster.addNode(Nodes.node("n1").cpu("1").build());
        f.cluster.addPod(Pods.pod("big").cpu("2").build());
        f.start(SchedulerFixture.BASE);
        await("unschedulable", () -> f.scheduler.queue().counts().get("unschedulable") == 1);
    }

    @Test
    void aNodeEventRequeuesAnUnschedulablePod() throws Exception {
        startWithAPodTooBig();
        f.cluster.addNode(Nodes.node("n2").cpu("8").build());
        await("bound after the node came", () -> f.cluster.bindings().size() == 1);
        assertEquals("n2", f.cluster.bindings().get(0).nodeName());
    }

    @Test
    void failedBindIsRetriedAndEndsBoundOnce() throws Exception {
        f.cluster.addNode(Nodes.node("n1").cpu("4").build());
        f.cluster.failNextBinds(2, 500);
        f.cluster.addPod(Pods.pod("p").cpu("100m").build());
        f.start(SchedulerFixture.BASE);
        await("bound", () -> f.cluster.bindings().size() == 1);
        // settled: the binding seen back from the cluster, no retry left in the queue
        await(
                "the binding confirmed",
                () -> f.scheduler.cache().assumedCount() == 0
                        && f.scheduler.queue().entries().isEmpty());
        assertEquals(1, f.cluster.bindings().size());
        assertEquals(1, f.scheduler.cache().podCount());
        assertEquals(
                100, f.scheduler.cache().node("n1").requested().milliCpu(), "the failed assumptions were forgotten");
    }

    @Test
    void deletedPendingPodIsForgotten() throws Exception {
        startWithAPodTooBig();
        f.cluster.removePod("default", "big");
        await("gone from the queue", () -> f.scheduler.queue().entries().isEmpty());
    }
}
