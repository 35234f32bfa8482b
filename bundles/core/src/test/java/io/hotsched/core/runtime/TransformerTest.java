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
import io.hotsched.core.config.ConfigParser;
import io.hotsched.core.registry.PluginHealth;
import io.hotsched.core.registry.PluginRegistry;
import io.hotsched.core.support.TestPlugins;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executors;
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
        PluginRegistry registry = new PluginRegistry(new PluginHealth(0));
        registry.add(
                TestPlugins.registration("PrioritySort", TestPlugins.factory(h -> new TestPlugins.Sort()), "1.0.0"));
        registry.add(TestPlugins.registration(
                "NodeResourcesFit", TestPlugins.factory(h -> new TestPlugins.CpuFit()), "1.0.0"));
        registry.add(TestPlugins.registration("DefaultBinder", TestPlugins.factory(TestPlugins.Binder::new), "1.0.0"));
        registry.add(TestPlugins.registration("Reserve3", TestPlugins.factory(h -> new Reserve3()), "1.0.0"));
        registry.add(TestPlugins.registration("Double", TestPlugins.factory(h -> new Double()), "1.0.0"));
        String yaml =
                "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- plugins:\n"
                        + "    multiPoint:\n      enabled:\n      - name: PrioritySort\n      - name: NodeResourcesFit\n      - name: DefaultBinder\n"
                        + "      disabled:\n      - name: \"*\"\n" + extra;
        var c = ConfigParser.parse(yaml, "s.yaml");
        FrameworkServices services = new FrameworkServices(
                new ParallelizerImpl(2, "t"),
                null,
                Snapshot::new,
                n -> List.of(),
                Executors.newSingleThreadScheduledExecutor());
        return ((FrameworkBuilder.Built)
                        FrameworkBuilder.build(c.profiles().get(0), "s.yaml", 0, registry::serving, services))
                .framework();
    }

    private static Snapshot nodes() {
        return new Snapshot(List.of(
                Nodes.node("n1").cpu("4").info(), Nodes.node("n2").cpu("2").info()));
    }

    @Test
    void withoutTransformersTheBigNodeWins() throws Exception {
        ScheduleResult r = new SchedulingAlgorithm(new ParallelizerImpl(1, "t"), new Random(1))
                .schedule(
                        framework(""),
                        new CycleState(),
                        Pods.pod("p").cpu("1500m").info(),
                        nodes());
        assertEquals("n1", r.suggestedHost());
    }

    @Test
    void aFilterTransformerChangesTheNodeFilterSees() throws Exception {
        FrameworkImpl f = framework(
                "    filter:\n      enabled:\n      - name: Reserve3\n    score:\n      enabled:\n      - name: Reserve3\n");
        ScheduleResult r = new SchedulingAlgorithm(new ParallelizerImpl(1, "t"), new Random(1))
                .schedule(f, new CycleState(), Pods.pod("p").cpu("1500m").info(), nodes());
        assertEquals("n2", r.suggestedHost(), "n1 has only 1 cpu left after the reservation");
    }

    @Test
    void aPreFilterTransformerReplacesThePodForTheWholeAttempt() throws Exception {
        FrameworkImpl f = framework("    preFilter:\n      enabled:\n      - name: Double\n");
        ScheduleResult r = new SchedulingAlgorithm(new ParallelizerImpl(1, "t"), new Random(1))
                .schedule(f, new CycleState(), Pods.pod("p").cpu("1500m").info(), nodes());
        assertEquals("n1", r.suggestedHost(), "3 cpu fit only on n1");
        assertEquals(3000, r.pod().requests().milliCpu());
    }
}
