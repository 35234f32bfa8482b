package io.hotsched.bench;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeScores;
import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PreFilterPlugin;
import io.hotsched.api.framework.PreScorePlugin;
import io.hotsched.api.framework.ScoreExtensions;
import io.hotsched.api.framework.ScorePlugin;
import io.hotsched.api.framework.Status;
import io.hotsched.core.runtime.ParallelizerImpl;
import io.hotsched.core.runtime.PluginArgsImpl;
import io.hotsched.core.runtime.Snapshot;
import io.hotsched.plugins.defaults.balancedallocation.BalancedAllocation;
import io.hotsched.plugins.defaults.balancedallocation.BalancedAllocationFactory;
import io.hotsched.plugins.defaults.interpodaffinity.InterPodAffinity;
import io.hotsched.plugins.defaults.interpodaffinity.InterPodAffinityFactory;
import io.hotsched.plugins.defaults.nodeaffinity.NodeAffinity;
import io.hotsched.plugins.defaults.nodeaffinity.NodeAffinityFactory;
import io.hotsched.plugins.defaults.noderesourcesfit.NodeResourcesFit;
import io.hotsched.plugins.defaults.noderesourcesfit.NodeResourcesFitFactory;
import io.hotsched.plugins.defaults.podtopologyspread.PodTopologySpread;
import io.hotsched.plugins.defaults.podtopologyspread.PodTopologySpreadFactory;
import io.hotsched.plugins.defaults.tainttoleration.TaintToleration;
import io.hotsched.plugins.defaults.tainttoleration.TaintTolerationFactory;
import io.hotsched.testing.FakeHandle;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One scheduling attempt's work for one plugin over a whole cluster: PreFilter then Filter on
 * every node, and PreScore, Score on every node and NormalizeScore. The cluster has {@code nodes}
 * nodes in 3 zones with 10 labelled pods each; the pod has requests, a node affinity, a hostname
 * anti-affinity and a zone spread constraint, so each heavy plugin has work to do. Single
 * threaded: the framework spreads nodes over its workers, this measures the per-node cost.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class FilterScoreBenchmark {

    @Param({"5000"})
    public int nodes;

    @Param({
        "NodeResourcesFit",
        "NodeResourcesBalancedAllocation",
        "NodeAffinity",
        "TaintToleration",
        "InterPodAffinity",
        "PodTopologySpread"
    })
    public String plugin;

    private static final Map<String, PluginFactory> FACTORIES = Map.of(
            NodeResourcesFit.NAME, new NodeResourcesFitFactory(),
            BalancedAllocation.NAME, new BalancedAllocationFactory(),
            NodeAffinity.NAME, new NodeAffinityFactory(),
            TaintToleration.NAME, new TaintTolerationFactory(),
            InterPodAffinity.NAME, new InterPodAffinityFactory(),
            PodTopologySpread.NAME, new PodTopologySpreadFactory());

    /** Workers of the framework's parallelizer; PreFilter/PreScore of the counting plugins use them. */
    @Param({"1"})
    public int parallelism;

    private ParallelizerImpl parallelizer;
    private Plugin instance;
    private List<NodeInfo> cluster;
    private Snapshot snapshot;
    private PodInfo pod;

    @Setup
    public void setUp() throws Exception {
        cluster = new ArrayList<>(nodes);
        for (int i = 0; i < nodes; i++) {
            String name = "node-" + i;
            Nodes n = Nodes.node(name)
                    .cpu("32")
                    .memory("128Gi")
                    .pods(110)
                    .label("kubernetes.io/hostname", name)
                    .label("topology.kubernetes.io/zone", "zone-" + (i % 3))
                    .label("disktype", i % 2 == 0 ? "ssd" : "hdd");
            if (i % 10 == 0) {
                n.taint("dedicated", "infra", "NoSchedule");
            }
            NodeInfo info = new NodeInfo(n.build());
            for (int p = 0; p < 10; p++) {
                info.addPod(Pods.pod(name + "-p" + p)
                        .uid(name + "-p" + p)
                        .node(name)
                        .label("app", "app-" + (p % 5))
                        .cpu("500m")
                        .memory("1Gi")
                        .info());
            }
            cluster.add(info);
        }
        snapshot = new Snapshot(cluster);
        FakeHandle handle = new FakeHandle();
        handle.setSnapshot(snapshot);
        parallelizer = new ParallelizerImpl(parallelism, "bench");
        handle.setParallelizer(parallelizer);
        instance = FACTORIES.get(plugin).create(new PluginArgsImpl(Map.of()), handle);
        Pod p = new PodBuilder(Pods.pod("incoming")
                        .label("app", "app-1")
                        .cpu("1")
                        .memory("2Gi")
                        .build())
                .editSpec()
                .withNewAffinity()
                .withNewNodeAffinity()
                .withNewRequiredDuringSchedulingIgnoredDuringExecution()
                .addNewNodeSelectorTerm()
                .addNewMatchExpression()
                .withKey("disktype")
                .withOperator("In")
                .withValues("ssd", "hdd")
                .endMatchExpression()
                .endNodeSelectorTerm()
                .endRequiredDuringSchedulingIgnoredDuringExecution()
                .endNodeAffinity()
                .withNewPodAntiAffinity()
                .addNewRequiredDuringSchedulingIgnoredDuringExecution()
                .withTopologyKey("kubernetes.io/hostname")
                .withLabelSelector(new LabelSelectorBuilder()
                        .addToMatchLabels("app", "app-9")
                        .build())
                .endRequiredDuringSchedulingIgnoredDuringExecution()
                .addNewPreferredDuringSchedulingIgnoredDuringExecution()
                .withWeight(10)
                .withNewPodAffinityTerm()
                .withTopologyKey("topology.kubernetes.io/zone")
                .withLabelSelector(new LabelSelectorBuilder()
                        .addToMatchLabels("app", "app-1")
                        .build())
                .endPodAffinityTerm()
                .endPreferredDuringSchedulingIgnoredDuringExecution()
                .endPodAntiAffinity()
                .endAffinity()
                .addNewTopologySpreadConstraint()
                .withMaxSkew(1)
                .withTopologyKey("topology.kubernetes.io/zone")
                .withWhenUnsatisfiable("DoNotSchedule")
                .withLabelSelector(new LabelSelectorBuilder()
                        .addToMatchLabels("app", "app-1")
                        .build())
                .endTopologySpreadConstraint()
                .addNewTopologySpreadConstraint()
                .withMaxSkew(1)
                .withTopologyKey("kubernetes.io/hostname")
                .withWhenUnsatisfiable("ScheduleAnyway")
                .withLabelSelector(new LabelSelectorBuilder()
                        .addToMatchLabels("app", "app-1")
                        .build())
                .endTopologySpreadConstraint()
                .endSpec()
                .build();
        pod = PodInfo.of(p);
    }

    @TearDown
    public void tearDown() {
        parallelizer.close();
    }

    /** PreFilter and Filter over all nodes; returns the number of feasible nodes. */
    @Benchmark
    public int filter() {
        if (!(instance instanceof FilterPlugin f)) {
            return -1;
        }
        CycleState state = new CycleState();
        if (instance instanceof PreFilterPlugin pf) {
            Status st = pf.preFilter(state, pod, snapshot).status();
            if (st.isSkip()) {
                return nodes;
            }
        }
        int feasible = 0;
        for (NodeInfo n : cluster) {
            if (f.filter(state, pod, n).isSuccess()) {
                feasible++;
            }
        }
        return feasible;
    }

    /** PreScore, Score over all nodes and NormalizeScore; returns one score so that nothing is optimised away. */
    @Benchmark
    public long score() {
        if (!(instance instanceof ScorePlugin s)) {
            return -1;
        }
        CycleState state = new CycleState();
        if (instance instanceof PreScorePlugin ps
                && ps.preScore(state, pod, cluster).isSkip()) {
            return 0;
        }
        NodeScores scores = new NodeScores(cluster);
        for (int i = 0; i < cluster.size(); i++) {
            scores.set(i, s.score(state, pod, cluster.get(i)));
        }
        ScoreExtensions ext = s.scoreExtensions();
        if (ext != null) {
            ext.normalizeScore(state, pod, scores);
        }
        return scores.score(0);
    }
}
