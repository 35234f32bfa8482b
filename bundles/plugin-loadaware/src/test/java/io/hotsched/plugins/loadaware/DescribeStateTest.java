package io.hotsched.plugins.loadaware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.core.runtime.PluginArgsImpl;
import io.hotsched.core.runtime.Snapshot;
import io.hotsched.testing.FakeHandle;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What sched:state LoadAwareScheduling shows: per node the metric, usage, deltas, and (for one node) the pods. */
class DescribeStateTest {

    @Test
    @SuppressWarnings("unchecked")
    void aNodeShowsItsUsageDeltaAndPods() throws Exception {
        Instant now = Instant.parse("2026-06-01T12:00:00Z");
        FakeHandle handle = new FakeHandle();
        handle.setClock(Clock.fixed(now, ZoneOffset.UTC));
        var metric = new GenericKubernetesResourceBuilder()
                .withApiVersion("slo.koordinator.sh/v1alpha1")
                .withKind("NodeMetric")
                .withNewMetadata()
                .withName("n1")
                .endMetadata()
                .build();
        metric.setAdditionalProperty(
                "status",
                Map.of(
                        "updateTime",
                        now.minusSeconds(30).toString(),
                        "nodeMetric",
                        Map.of("nodeUsage", Map.of("resources", Map.of("cpu", "2", "memory", "1Gi")))));
        handle.addObject(metric);
        NodeInfo n1 = new NodeInfo(Nodes.node("n1").cpu("8").memory("16Gi").build());
        // placed just now, not in the metric yet: its estimate is the delta
        n1.addPod(Pods.pod("web").uid("w").node("n1").cpu("1").memory("1Gi").info());
        NodeInfo n2 = new NodeInfo(Nodes.node("n2").cpu("8").build());
        handle.setSnapshot(new Snapshot(List.of(n1, n2)));
        LoadAwareScheduling plugin = LoadAwareScheduling.create(new PluginArgsImpl(Map.of()), handle);

        Map<String, Object> state =
                (Map<String, Object>) plugin.describeState("n1").get("n1");
        assertEquals(Map.of("cpu", "2000m", "memory", String.valueOf(1L << 30)), state.get("usage"));
        assertEquals("850m", ((Map<String, String>) state.get("delta")).get("cpu"), "85% of the 1 cpu request");
        List<Map<String, Object>> pods = (List<Map<String, Object>>) state.get("pods");
        assertEquals("default/web", pods.get(0).get("pod"));
        assertEquals(true, pods.get(0).get("inDelta"));
        assertTrue(((String) state.get("nodeMetric")).startsWith("updated " + now.minusSeconds(30)));

        Map<String, Object> all = plugin.describeState(null);
        assertEquals(List.of("n1"), List.copyOf(all.keySet()), "a node without metric and pods is left out");
        assertEquals(
                "no such node in the scheduler's snapshot",
                plugin.describeState("n9").get("n9"));
    }
}
