package io.hotsched.core.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.InvalidArgsException;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeInfoLister;
import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PluginArgs;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PreFilterPlugin;
import io.hotsched.api.framework.PreFilterResult;
import io.hotsched.api.framework.ScorePlugin;
import io.hotsched.api.framework.Status;
import io.hotsched.api.framework.ext.FilterTransformer;
import io.hotsched.api.framework.ext.Transformation;
import io.hotsched.core.config.ConfigParser;
import io.hotsched.core.extender.Extenders;
import io.hotsched.core.registry.PluginRegistry;
import io.hotsched.core.support.TestPlugins;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** MultiPoint expansion, precedence, weights and transformer placement. */
class FrameworkBuilderTest {

    /** Neutral at PreFilter, Filter and Score. */
    record PF(String name) implements PreFilterPlugin, FilterPlugin, ScorePlugin {
        @Override
        public PreFilterResult preFilter(CycleState s, PodInfo p, NodeInfoLister n) {
            return PreFilterResult.ALL_NODES;
        }

        @Override
        public Status filter(CycleState s, PodInfo p, NodeInfo n) {
            return Status.SUCCESS;
        }

        @Override
        public long score(CycleState s, PodInfo p, NodeInfo n) {
            return 0;
        }
    }

    static final class Reservation implements FilterTransformer {
        @Override
        public String name() {
            return "NodeReservation";
        }

        @Override
        public Transformation beforeFilter(CycleState s, PodInfo p, NodeInfo n) {
            return Transformation.UNCHANGED;
        }
    }

    private final PluginRegistry registry = TestFrameworks.registry(
            TestFrameworks.plugin("A", h -> new PF("A")),
            TestFrameworks.plugin("B", h -> new PF("B")),
            TestFrameworks.plugin("C", h -> new PF("C")),
            TestFrameworks.plugin("NodeReservation", h -> new Reservation()));

    private FrameworkImpl build(String plugins) throws Exception {
        return TestFrameworks.build(TestFrameworks.PLUGINS + plugins, registry, TestFrameworks.services(1));
    }

    private static final String MULTI = """
                multiPoint:
                  enabled:
                  - name: PrioritySort
                  - name: A
                    weight: 2
                  - name: B
                  - name: C
                  - name: DefaultBinder
                  disabled:
                  - name: "*"
            """;

    @Test
    void multiPointExpandsIntoEveryPointThePluginImplements() throws Exception {
        FrameworkImpl f = build(MULTI);
        assertEquals(
                List.of("A", "B", "C"),
                f.slots().filter.stream().map(Slot::name).toList());
        assertEquals(
                List.of("A", "B", "C"),
                f.slots().preFilter.stream().map(Slot::name).toList());
        assertEquals(Map.of("A", 2, "B", 1, "C", 1), f.slots().scoreWeights);
        assertEquals(
                List.of("DefaultBinder"),
                f.slots().bind.stream().map(Slot::name).toList());
    }

    @Test
    void aSpecificPointOverridesMultiPointInPlaceAndDisablesPerPoint() throws Exception {
        FrameworkImpl f = build(MULTI + """
                score:
                  enabled:
                  - name: C
                    weight: 7
                filter:
                  disabled:
                  - name: B
            """);
        // overridden plugins first (in their specific order), then the rest of MultiPoint
        assertEquals(
                List.of("C", "A", "B"), f.slots().score.stream().map(Slot::name).toList());
        assertEquals(7, f.slots().scoreWeights.get("C"));
        assertEquals(
                List.of("A", "C"), f.slots().filter.stream().map(Slot::name).toList());
    }

    @Test
    void disablingStarAtAPointLeavesOnlyItsExplicitPlugins() throws Exception {
        FrameworkImpl f = build(MULTI + """
                filter:
                  enabled:
                  - name: B
                  disabled:
                  - name: "*"
            """);
        assertEquals(List.of("B"), f.slots().filter.stream().map(Slot::name).toList());
        assertEquals(3, f.slots().preFilter.size());
    }

    @Test
    void transformersGoWhereTheirNameIsEnabledInThatOrder() throws Exception {
        FrameworkImpl f = build(MULTI + """
                filter:
                  enabled:
                  - name: NodeReservation
            """);
        assertEquals(
                List.of("NodeReservation"),
                f.slots().filterTransformers.stream().map(Slot::name).toList());
        assertEquals(
                List.of("A", "B", "C"),
                f.slots().filter.stream().map(Slot::name).toList(),
                "not a Filter plugin itself");
        assertTrue(f.slots().scoreTransformers.isEmpty());
        assertEquals(List.of("FilterTransformer"), f.pointsByPlugin().get("NodeReservation"));
    }

    @Test
    void aMissingPluginIsReportedNotBuilt() throws Exception {
        FrameworkBuilder.Result r = TestFrameworks.result(
                TestFrameworks.PLUGINS + MULTI + "    filter:\n      enabled:\n      - name: Absent\n",
                registry,
                null,
                Extenders.NONE);
        assertEquals(new FrameworkBuilder.Missing(Set.of("Absent")), r);
    }

    @Test
    void resourcesAnExtenderManagesWithIgnoredBySchedulerReplaceNodeResourcesFitsIgnoredResources() throws Exception {
        AtomicReference<Map<String, Object>> seen = new AtomicReference<>();
        registry.add(TestPlugins.registration(
                "NodeResourcesFit",
                new PluginFactory() {
                    @Override
                    @SuppressWarnings("unchecked")
                    public Plugin create(PluginArgs args, Handle h) throws InvalidArgsException {
                        seen.set(args.as(Map.class));
                        return new PF("NodeResourcesFit");
                    }
                },
                "1.0.0"));
        String yaml = TestFrameworks.PLUGINS + """
                    multiPoint:
                      enabled: [{name: PrioritySort}, {name: NodeResourcesFit}, {name: DefaultBinder}]
                      disabled: [{name: "*"}]
                  pluginConfig:
                  - name: NodeResourcesFit
                    args: {ignoredResources: [example.com/mine], scoringStrategy: {type: MostAllocated}}
                extenders:
                - urlPrefix: http://127.0.0.1:1/
                  filterVerb: filter
                  managedResources:
                  - {name: example.com/gpu, ignoredByScheduler: true}
                  - {name: example.com/fpga}
                """;
        Extenders extenders = Extenders.of(ConfigParser.parse(yaml, "s.yaml").extenders(), null);
        FrameworkBuilder.Result r = TestFrameworks.result(yaml, registry, TestFrameworks.services(1), extenders);
        assertTrue(r instanceof FrameworkBuilder.Built, r.toString());
        assertEquals(
                List.of("example.com/gpu"), seen.get().get("ignoredResources"), "replaced, as upstream: " + seen.get());
        assertEquals(Map.of("type", "MostAllocated"), seen.get().get("scoringStrategy"), "the other args are kept");
    }
}
