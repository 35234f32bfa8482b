package io.hotsched.transformers.nodereservation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;
import io.hotsched.core.config.ConfigParser;
import io.hotsched.core.registry.Registration;
import io.hotsched.core.runtime.FrameworkBuilder;
import io.hotsched.core.runtime.FrameworkImpl;
import io.hotsched.core.runtime.FrameworkServices;
import io.hotsched.core.runtime.ParallelizerImpl;
import io.hotsched.core.runtime.Snapshot;
import io.hotsched.plugins.defaults.defaultbinder.DefaultBinderFactory;
import io.hotsched.plugins.defaults.noderesourcesfit.NodeResourcesFitFactory;
import io.hotsched.plugins.defaults.queuesort.PrioritySortFactory;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.osgi.framework.Version;

/** Reserved resources come off what Filter and Score see; the cached node stays as it is. */
class NodeReservationTest {

    private static NodeInfo node(String reservation) {
        Nodes n = Nodes.node("n1").cpu("8").memory("16Gi").allocatable("nvidia.com/gpu", "2");
        if (reservation != null) {
            n.annotation(NodeReservation.ANNOTATION, reservation);
        }
        NodeInfo info = new NodeInfo(n.build());
        info.setGeneration(1);
        return info;
    }

    private final NodeReservation t = new NodeReservation();

    @Test
    void cpuAndMemoryAreTakenOffAndOtherResourcesKept() {
        NodeInfo n = node("{\"resources\":{\"cpu\":\"2\",\"memory\":\"4Gi\",\"nvidia.com/gpu\":\"1\"}}");
        NodeInfo seen = t.transform(n);
        assertEquals(6000, seen.allocatable().milliCpu());
        assertEquals(12L << 30, seen.allocatable().memory());
        assertEquals(2, seen.allocatable().get("nvidia.com/gpu"), "only cpu and memory are trimmed");
        assertEquals(8000, n.allocatable().milliCpu(), "the cached node is not changed");
        assertSame(seen, t.transform(n), "the same generation reuses the copy");
    }

    @Test
    void reservedCpusCountInsteadOfTheCpuQuantity() {
        assertEquals(
                4000,
                t.transform(node("{\"resources\":{\"cpu\":\"6\"},\"reservedCPUs\":\"0-1,4,6\"}"))
                        .allocatable()
                        .milliCpu());
    }

    @Test
    void nothingChangesWithoutReservationForReservedCpusOnlyOrUnreadableJson() {
        NodeInfo plain = node(null);
        assertSame(plain, t.transform(plain));
        NodeInfo cpusOnly = node("{\"resources\":{\"cpu\":\"2\"},\"applyPolicy\":\"ReservedCPUsOnly\"}");
        assertSame(cpusOnly, t.transform(cpusOnly));
        NodeInfo broken = node("{not json");
        assertSame(broken, t.transform(broken));
        assertEquals(
                0,
                t.transform(node("{\"resources\":{\"cpu\":\"20\"}}"))
                        .allocatable()
                        .milliCpu(),
                "never below 0");
    }

    @Test
    void inAFrameworkTheFilterPluginsSeeTheReservation() throws Exception {
        String yaml = """
                apiVersion: kubescheduler.config.k8s.io/v1
                kind: KubeSchedulerConfiguration
                profiles:
                - plugins:
                    multiPoint:
                      enabled: [{name: PrioritySort}, {name: NodeResourcesFit}, {name: DefaultBinder}]
                      disabled: [{name: "*"}]
                    filter:
                      enabled: [{name: NodeReservation}]
                """;
        Map<String, PluginFactory> plugins = Map.of(
                "NodeResourcesFit",
                new NodeResourcesFitFactory(),
                NodeReservation.NAME,
                new NodeReservationFactory(),
                "PrioritySort",
                new PrioritySortFactory(),
                "DefaultBinder",
                new DefaultBinderFactory());
        NodeInfo n = node("{\"resources\":{\"cpu\":\"6\"}}");
        Snapshot snapshot = new Snapshot(List.of(n));
        FrameworkServices services = new FrameworkServices(
                new ParallelizerImpl(1, "t"),
                null,
                () -> snapshot,
                x -> List.of(),
                Executors.newSingleThreadScheduledExecutor());
        FrameworkBuilder.Result r = FrameworkBuilder.build(
                ConfigParser.parse(yaml, "s.yaml").profiles().get(0),
                "s.yaml",
                0,
                name -> Optional.ofNullable(plugins.get(name))
                        .map(p -> new Registration(name, p, "t", Version.emptyVersion, 1)),
                services);
        assertTrue(r instanceof FrameworkBuilder.Built, r.toString());
        FrameworkImpl f = ((FrameworkBuilder.Built) r).framework();
        PodInfo pod = Pods.pod("p").cpu("3").info();
        CycleState state = new CycleState();
        f.runPreFilter(state, pod, snapshot);
        Status st = f.runFilterPluginsWithNominatedPods(state, pod, n);
        assertEquals(List.of("Insufficient cpu"), st.reasons(), "8 cpu less 6 reserved leave 2");
        PodInfo fits = Pods.pod("q").cpu("2").info();
        CycleState other = new CycleState();
        f.runPreFilter(other, fits, snapshot);
        assertTrue(f.runFilterPluginsWithNominatedPods(other, fits, n).isSuccess(), "2 cpu fit in what is left");
    }
}
