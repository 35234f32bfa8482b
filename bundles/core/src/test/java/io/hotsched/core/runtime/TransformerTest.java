package io.hotsched.core.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PreFilterResult;
import io.hotsched.api.framework.Status;
import io.hotsched.api.framework.ext.FilterTransformer;
import io.hotsched.api.framework.ext.PreFilterTransformer;
import io.hotsched.api.framework.ext.ScoreTransformer;
import io.hotsched.api.framework.ext.Transformation;
import io.hotsched.core.registry.PluginRegistry;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import io.hotsched.testing.SimplePlugins;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Koordinator's transformers change what the plugins of their point see, and nothing else. */
class TransformerTest {

    /** Takes 3 cpu off n1's allocatable for Filter and Score (like a node reservation). */
    static final class Reserve3 implements FilterTransformer, ScoreTransformer {
        @Override
        public String name() {
            return "Reserve3";
        }

        private static NodeInfo shrink(NodeInfo n) {
            if (!n.name().equals("n1")) {
                return n;
            }
            NodeInfo copy = n.copy();
            copy.setNode(Nodes.node("n1").cpu("1").build());
            return copy;
        }

        @Override
        public Transformation beforeFilter(CycleState s, PodInfo p, NodeInfo n) {
            return n.name().equals("n1") ? Transformation.node(shrink(n)) : Transformation.UNCHANGED;
        }

        @Override
        public Transformation beforeScore(CycleState s, PodInfo p, List<NodeInfo> nodes) {
            List<NodeInfo> out = new ArrayList<>();
            nodes.forEach(n -> out.add(shrink(n)));
            return Transformation.nodes(out);
        }
    }

    /** Doubles the pod's cpu request before PreFilter. */
    static final class Double implements PreFilterTransformer {
        @Override
        public String name() {
            return "Double";
        }

        @Override
        public Transformation beforePreFilter(CycleState s, PodInfo p) {
            return Transformation.pod(
                    Pods.pod(p.name()).cpu((p.requests().milliCpu() * 2) + "m").info());
        }

        @Override
        public Status afterPreFilter(CycleState s, PodInfo p, PreFilterResult r) {
            return Status.SUCCESS;
        }
    }

    private FrameworkImpl framework(String extra) throws Exception {
        PluginRegistry registry = TestFrameworks.registry(
                TestFrameworks.plugin("NodeResourcesFit", h -> new SimplePlugins.CpuFit()),
                TestFrameworks.plugin("Reserve3", h -> new Reserve3()),
                TestFrameworks.plugin("Double", h -> new Double()));
        String yaml = TestFrameworks.PLUGINS
                + "    multiPoint:\n      enabled:\n      - name: PrioritySort\n      - name: NodeResourcesFit\n      - name: DefaultBinder\n"
                + "      disabled:\n      - name: \"*\"\n" + extra;
        return TestFrameworks.build(yaml, registry, TestFrameworks.services(2));
    }

    /** Where a pod of 1500m cpu goes with n1 of 4 cpu and n2 of 2. */
    private static ScheduleResult schedule(FrameworkImpl f) throws Exception {
        Snapshot nodes = new Snapshot(List.of(
                Nodes.node("n1").cpu("4").info(), Nodes.node("n2").cpu("2").info()));
        return new SchedulingAlgorithm(new ParallelizerImpl(1, "t"), new Random(1))
                .schedule(f, new CycleState(), Pods.pod("p").cpu("1500m").info(), nodes);
    }

    @Test
    void withoutTransformersTheBigNodeWins() throws Exception {
        assertEquals("n1", schedule(framework("")).suggestedHost());
    }

    @Test
    void aFilterTransformerChangesTheNodeFilterSees() throws Exception {
        FrameworkImpl f = framework(
                "    filter:\n      enabled:\n      - name: Reserve3\n    score:\n      enabled:\n      - name: Reserve3\n");
        assertEquals("n2", schedule(f).suggestedHost(), "n1 has only 1 cpu left after the reservation");
    }

    @Test
    void aPreFilterTransformerReplacesThePodForTheWholeAttempt() throws Exception {
        ScheduleResult r = schedule(framework("    preFilter:\n      enabled:\n      - name: Double\n"));
        assertEquals("n1", r.suggestedHost(), "3 cpu fit only on n1");
        assertEquals(3000, r.pod().requests().milliCpu());
    }
}
