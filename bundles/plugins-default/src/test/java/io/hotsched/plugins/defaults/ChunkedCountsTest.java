package io.hotsched.plugins.defaults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PreFilterPlugin;
import io.hotsched.api.framework.PreScorePlugin;
import io.hotsched.api.framework.ScorePlugin;
import io.hotsched.core.runtime.ParallelizerImpl;
import io.hotsched.core.runtime.PluginArgsImpl;
import io.hotsched.core.runtime.Snapshot;
import io.hotsched.plugins.defaults.interpodaffinity.InterPodAffinityFactory;
import io.hotsched.plugins.defaults.podtopologyspread.PodTopologySpreadFactory;
import io.hotsched.testing.FakeHandle;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * InterPodAffinity and PodTopologySpread count in PreFilter/PreScore on the framework's workers,
 * one chunk of nodes each; the merged counts must decide exactly as one sequential pass does.
 */
class ChunkedCountsTest {

    private static final int NODES = 1500;

    private static List<NodeInfo> cluster() {
        Random r = new Random(42);
        List<NodeInfo> nodes = new ArrayList<>();
        for (int i = 0; i < NODES; i++) {
            NodeInfo n = new NodeInfo(Nodes.node("n" + i)
                    .cpu("64")
                    .label("kubernetes.io/hostname", "n" + i)
                    .label("topology.kubernetes.io/zone", "z" + (i % 5))
                    .build());
            int pods = r.nextInt(4);
            for (int p = 0; p < pods; p++) {
                String app = "app" + r.nextInt(6);
                PodBuilder b = new PodBuilder(Pods.pod(app + "-" + i + "-" + p)
                        .uid(i + "-" + p)
                        .node("n" + i)
                        .label("app", app)
                        .build());
                if (r.nextInt(10) == 0) {
                    // an existing pod that keeps "web" pods off its host
                    b.editSpec()
                            .withNewAffinity()
                            .withNewPodAntiAffinity()
                            .addNewRequiredDuringSchedulingIgnoredDuringExecution()
                            .withTopologyKey("kubernetes.io/hostname")
                            .withLabelSelector(new LabelSelectorBuilder()
                                    .addToMatchLabels("app", "web")
                                    .build())
                            .endRequiredDuringSchedulingIgnoredDuringExecution()
                            .endPodAntiAffinity()
                            .endAffinity()
                            .endSpec();
                }
                n.addPod(PodInfo.of(b.build()));
            }
            nodes.add(n);
        }
        return nodes;
    }

    private static PodInfo incoming() {
        Pod p = new PodBuilder(Pods.pod("web").label("app", "web").build())
                .editSpec()
                .withNewAffinity()
                .withNewPodAntiAffinity()
                .addNewRequiredDuringSchedulingIgnoredDuringExecution()
                .withTopologyKey("kubernetes.io/hostname")
                .withLabelSelector(new LabelSelectorBuilder()
                        .addToMatchLabels("app", "app1")
                        .build())
                .endRequiredDuringSchedulingIgnoredDuringExecution()
                .endPodAntiAffinity()
                .withNewPodAffinity()
                .addNewPreferredDuringSchedulingIgnoredDuringExecution()
                .withWeight(10)
                .withNewPodAffinityTerm()
                .withTopologyKey("topology.kubernetes.io/zone")
                .withLabelSelector(new LabelSelectorBuilder()
                        .addToMatchLabels("app", "app2")
                        .build())
                .endPodAffinityTerm()
                .endPreferredDuringSchedulingIgnoredDuringExecution()
                .endPodAffinity()
                .endAffinity()
                .addNewTopologySpreadConstraint()
                .withMaxSkew(1)
                .withTopologyKey("topology.kubernetes.io/zone")
                .withWhenUnsatisfiable("DoNotSchedule")
                .withLabelSelector(new LabelSelectorBuilder()
                        .addToMatchLabels("app", "app3")
                        .build())
                .endTopologySpreadConstraint()
                .addNewTopologySpreadConstraint()
                .withMaxSkew(1)
                .withTopologyKey("kubernetes.io/hostname")
                .withWhenUnsatisfiable("ScheduleAnyway")
                .withLabelSelector(new LabelSelectorBuilder()
                        .addToMatchLabels("app", "app4")
                        .build())
                .endTopologySpreadConstraint()
                .addNewTopologySpreadConstraint()
                .withMaxSkew(1)
                .withTopologyKey("topology.kubernetes.io/zone")
                .withWhenUnsatisfiable("ScheduleAnyway")
                .withLabelSelector(new LabelSelectorBuilder()
                        .addToMatchLabels("app", "app5")
                        .build())
                .endTopologySpreadConstraint()
                .endSpec()
                .build();
        return PodInfo.of(p);
    }

    /** Filter reasons per node, then raw scores per node. */
    private static List<String> decide(PluginFactory factory, List<NodeInfo> nodes, int parallelism) throws Exception {
        FakeHandle handle = new FakeHandle();
        Snapshot snapshot = new Snapshot(nodes);
        handle.setSnapshot(snapshot);
        try (ParallelizerImpl p = new ParallelizerImpl(parallelism, "chunks")) {
            handle.setParallelizer(p);
            Plugin plugin = factory.create(new PluginArgsImpl(Map.of()), handle);
            PodInfo pod = incoming();
            List<String> out = new ArrayList<>();
            CycleState state = new CycleState();
            assertTrue(((PreFilterPlugin) plugin)
                    .preFilter(state, pod, snapshot)
                    .status()
                    .isSuccess());
            for (NodeInfo n : nodes) {
                out.add(n.name() + " "
                        + ((FilterPlugin) plugin).filter(state, pod, n).reasons());
            }
            CycleState scoring = new CycleState();
            assertTrue(((PreScorePlugin) plugin).preScore(scoring, pod, nodes).isSuccess());
            for (NodeInfo n : nodes) {
                out.add(n.name() + " = " + ((ScorePlugin) plugin).score(scoring, pod, n));
            }
            return out;
        }
    }

    private static void sameAsSequential(PluginFactory factory) throws Exception {
        List<NodeInfo> nodes = cluster();
        List<String> sequential = decide(factory, nodes, 1);
        assertEquals(sequential, decide(factory, nodes, 4));
        // the comparison means something: nodes are told apart
        Set<String> outcomes = new HashSet<>();
        sequential.forEach(s -> outcomes.add(s.substring(s.indexOf(' '))));
        assertTrue(outcomes.size() > 3, "varied decisions: " + outcomes);
    }

    @Test
    void interPodAffinityCountsTheSameInChunks() throws Exception {
        sameAsSequential(new InterPodAffinityFactory());
    }

    @Test
    void podTopologySpreadCountsTheSameInChunks() throws Exception {
        sameAsSequential(new PodTopologySpreadFactory());
    }
}
