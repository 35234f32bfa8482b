package io.hotsched.bench.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.hotsched.testing.InMemoryCluster;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The runner's operations for upstream's newer workloads, each at its smallest size, with the
 * scheduler in-process: what each op leaves behind in the cluster, not how fast.
 */
class RunnerTest {

    private static final Progress QUIET = new Progress(new PrintStream(OutputStream.nullOutputStream()));

    /** What a workload left, once the ops it ran in the background are done too. */
    private record Ran(Runner.Measured measured, InMemoryCluster cluster) {}

    private static Ran run(String workload) throws Exception {
        String[] parts = workload.split("/", 2);
        PerfCases.Case c = PerfCases.load().stream()
                .filter(x -> x.name().equals(parts[0]))
                .findFirst()
                .orElseThrow();
        PerfCases.Workload w = c.workloads().stream()
                .filter(x -> x.name().equals(parts[1]))
                .findFirst()
                .orElseThrow();
        InProcessTarget target = new InProcessTarget("");
        try (Runner runner = new Runner(target, QUIET)) {
            Runner.Measured m = runner.run(c, w);
            runner.awaitBackground();
            return new Ran(m, target.cluster());
        }
    }

    private static List<Pod> podsIn(InMemoryCluster cluster, String namespace) {
        return cluster.pods().stream()
                .filter(p -> namespace.equals(p.getMetadata().getNamespace()))
                .toList();
    }

    private static boolean bound(Pod p) {
        return p.getSpec().getNodeName() != null && !p.getSpec().getNodeName().isEmpty();
    }

    @Test
    void daemonsetPodsAllGoToTheOneNamedNode() throws Exception {
        Ran r = run("SchedulingDaemonset/5Nodes");
        assertEquals(10, r.measured().pods());
        List<Pod> measured = podsIn(r.cluster(), r.measured().namespace());
        assertEquals(10, measured.size());
        assertTrue(
                measured.stream()
                        .allMatch(p -> "scheduler-perf-node".equals(p.getSpec().getNodeName())),
                "every pod on scheduler-perf-node: "
                        + measured.stream().map(p -> p.getSpec().getNodeName()).toList());
    }

    @Test
    void gatedPodsAreAttemptedButNeverBoundWhileTheOthersAre() throws Exception {
        Ran r = run("SchedulingWhileGated/1Node_10GatedPods");
        List<Pod> gated = podsIn(r.cluster(), "namespace-1");
        assertEquals(10, gated.size());
        assertTrue(gated.stream().noneMatch(RunnerTest::bound), "a gated pod was bound");
        assertTrue(gated.stream().allMatch(InProcessTarget::hasPodScheduled), "the barrier saw every gated pod");
        assertEquals(10, r.cluster().boundIn(r.measured().namespace()));
    }

    @Test
    void podsWithAFinalizerStayMarkedForDeletionWhileTheMeasuredOnesAreBound() throws Exception {
        Ran r = run("SchedulingDeletedPodsWithFinalizers/10Node_100DeletingPods");
        assertEquals(10, r.cluster().boundIn(r.measured().namespace()));
        List<Pod> deleting = podsIn(r.cluster(), "namespace-1");
        assertEquals(10, deleting.size(), "pods with a finalizer stay, marked");
        assertTrue(deleting.stream().allMatch(p -> p.getMetadata().getDeletionTimestamp() != null));
    }

    @Test
    void preemptionAsyncMeasuresTheDefaultPodsBesideHighPriorityChurn() throws Exception {
        Ran r = run("PreemptionAsync/5Nodes");
        assertEquals(5, r.measured().pods());
        assertEquals(5, r.cluster().boundIn(r.measured().namespace()));
    }
}
