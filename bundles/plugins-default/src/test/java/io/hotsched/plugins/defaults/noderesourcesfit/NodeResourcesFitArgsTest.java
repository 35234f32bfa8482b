package io.hotsched.plugins.defaults.noderesourcesfit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.InvalidArgsException;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.ScorePlugin;
import io.hotsched.core.runtime.PluginArgsImpl;
import io.hotsched.testing.FakeHandle;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The v1 arguments: defaulting, and errors that name the field and what would be valid. */
class NodeResourcesFitArgsTest {

    private static InvalidArgsException refused(Map<String, Object> args) {
        return assertThrows(
                InvalidArgsException.class,
                () -> new NodeResourcesFitFactory().create(new PluginArgsImpl(args), new FakeHandle()));
    }

    private static long score(Map<String, Object> args) throws Exception {
        ScorePlugin p = (ScorePlugin) new NodeResourcesFitFactory().create(new PluginArgsImpl(args), new FakeHandle());
        NodeInfo node =
                new NodeInfo(Nodes.node("n1").cpu("4").memory("8Gi").pods(10).build());
        return p.score(
                new CycleState(),
                PodInfo.of(Pods.pod("p").cpu("1").memory("1Gi").build()),
                node);
    }

    @Test
    void unknownStrategyTypeIsRefusedWithTheValidOnes() {
        InvalidArgsException e = refused(Map.of("scoringStrategy", Map.of("type", "Balanced")));
        assertEquals("scoringStrategy.type", e.field());
        assertEquals(
                "scoringStrategy.type: invalid value \"Balanced\": Unsupported value: one of LeastAllocated, MostAllocated, "
                        + "RequestedToCapacityRatio",
                e.getMessage());
    }

    /** The field named when a RequestedToCapacityRatio strategy with {@code shape} is refused. */
    private static String shapeRefused(List<Map<String, Integer>> shape) {
        return refused(Map.of(
                        "scoringStrategy",
                        Map.of("type", "RequestedToCapacityRatio", "requestedToCapacityRatio", Map.of("shape", shape))))
                .field();
    }

    @Test
    void shapeMustRiseAndStayInRange() {
        assertEquals(
                "scoringStrategy.requestedToCapacityRatio.shape[1].utilization",
                shapeRefused(List.of(Map.of("utilization", 50, "score", 1), Map.of("utilization", 50, "score", 2))));
        assertEquals(
                "scoringStrategy.requestedToCapacityRatio.shape[0].score",
                shapeRefused(List.of(Map.of("utilization", 0, "score", 11))));
        assertEquals(
                "scoringStrategy.requestedToCapacityRatio.shape",
                refused(Map.of("scoringStrategy", Map.of("type", "RequestedToCapacityRatio")))
                        .field());
    }

    @Test
    void resourceGroupsHaveNoSlashAndResourcesAreListedOnce() {
        assertEquals(
                "ignoredResourceGroups[0]",
                refused(Map.of("ignoredResourceGroups", List.of("example.com/aaa")))
                        .field());
        assertEquals(
                "scoringStrategy.resources[1].name",
                refused(Map.of(
                                "scoringStrategy",
                                Map.of(
                                        "type",
                                        "LeastAllocated",
                                        "resources",
                                        List.of(
                                                Map.of("name", "cpu", "weight", 1),
                                                Map.of("name", "cpu", "weight", 2)))))
                        .field());
    }

    @Test
    void zeroWeightAndNoResourcesDefaultAsInV1() throws Exception {
        long defaults = score(Map.of());
        assertEquals(
                defaults,
                score(Map.of(
                        "scoringStrategy",
                        Map.of(
                                "type",
                                "LeastAllocated",
                                "resources",
                                List.of(Map.of("name", "cpu", "weight", 0), Map.of("name", "memory"))))));
        assertEquals(defaults, score(Map.of("scoringStrategy", Map.of("type", "LeastAllocated"))));
        // 3 of 4 cpu free = 75, 7 of 8Gi memory free = 87: (75 + 87) / 2
        assertEquals(81, defaults);
    }
}
