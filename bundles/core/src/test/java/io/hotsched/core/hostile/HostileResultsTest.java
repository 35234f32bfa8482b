package io.hotsched.core.hostile;

import static io.hotsched.core.support.SchedulerFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeInfoLister;
import io.hotsched.api.framework.NodeScores;
import io.hotsched.api.framework.PermitResult;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PostFilterResult;
import io.hotsched.api.framework.PreFilterPlugin;
import io.hotsched.api.framework.PreFilterResult;
import io.hotsched.api.framework.ScoreExtensions;
import io.hotsched.api.framework.ScorePlugin;
import io.hotsched.api.framework.Status;
import io.hotsched.core.support.SchedulerFixture;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.OnePoint;
import io.hotsched.testing.Pods;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Issue 26's hostile plugins that return something out of range or odd, or change what they were
 * handed, through the real framework ({@link HostilePluginsTest#run}): what the pod's owner sees.
 * A score above MaxNodeScore is FaultIsolationTest's; a normalizer cannot change the length of the
 * score list (NodeScores is fixed in size), only write past it.
 */
class HostileResultsTest {

    private static String run(io.hotsched.api.framework.Plugin plugin, String cpu) throws Exception {
        return HostilePluginsTest.run((args, handle) -> plugin, cpu, false);
    }

    @Test
    void theLowestLongAsAScoreIsOutOfRangeNotTakenForAFailure() throws Exception {
        assertEquals(
                "pending: applying score defaultWeights on Score plugins: plugin \"Hostile\" returns an invalid score"
                        + " -9223372036854775808, it should in the range of [0, 100] after normalizing",
                run(new OnePoint.Score(Hostile.NAME, (state, pod, node) -> Long.MIN_VALUE), "100m"));
    }

    /** Scores 50, then its normalizer writes one place past the list. */
    static final class WritesPastTheScores implements ScorePlugin, ScoreExtensions {
        @Override
        public String name() {
            return Hostile.NAME;
        }

        @Override
        public long score(CycleState state, PodInfo pod, NodeInfo node) {
            return 50;
        }

        @Override
        public ScoreExtensions scoreExtensions() {
            return this;
        }

        @Override
        public Status normalizeScore(CycleState state, PodInfo pod, NodeScores scores) {
            scores.set(scores.size(), 100);
            return Status.SUCCESS;
        }
    }

    @Test
    void aNormalizerWritingPastTheScoresFailsTheAttempt() throws Exception {
        assertEquals(
                "pending: running Normalize on Score plugin \"Hostile\": Index 2 out of bounds for length 2",
                run(new WritesPastTheScores(), "100m"));
    }

    /** PreFilter narrows the nodes to {@code names}. */
    record Narrowing(Set<String> names) implements PreFilterPlugin {
        @Override
        public String name() {
            return Hostile.NAME;
        }

        @Override
        public PreFilterResult preFilter(CycleState state, PodInfo pod, NodeInfoLister nodes) {
            return PreFilterResult.nodes(names);
        }
    }

    @Test
    void aPreFilterResultOfNodesThatDoNotExist() throws Exception {
        System.out.println("ROW " + run(new Narrowing(Set.of("ghost")), "100m"));
    }

    @Test
    void aPermitWaitOfNegativeLength() throws Exception {
        System.out.println("ROW "
                + run(
                        new OnePoint.Permit(Hostile.NAME, (s, p, n) -> PermitResult.waitFor(Duration.ofSeconds(-5))),
                        "100m"));
    }

    @Test
    void aPostFilterNominatingANodeThatDoesNotExist() throws Exception {
        System.out.println("ROW "
                + run(new OnePoint.PostFilter(Hostile.NAME, (s, p, st) -> PostFilterResult.nominated("ghost")), "100"));
    }

    @Test
    void theViewsAPluginIsHandedAreReadOnly() throws Exception {
        assertEquals(
                "pending: running \"Hostile\" filter plugin: java.lang.UnsupportedOperationException",
                run(
                        new OnePoint.Filter(Hostile.NAME, (state, pod, node) -> {
                            pod.labels().put("stolen", "yes");
                            return Status.SUCCESS;
                        }),
                        "100m"));
        assertEquals(
                "pending: running \"Hostile\" filter plugin: java.lang.UnsupportedOperationException",
                run(
                        new OnePoint.Filter(Hostile.NAME, (state, pod, node) -> {
                            node.pods().clear();
                            return Status.SUCCESS;
                        }),
                        "100m"));
    }

    /**
     * NodeInfo's own mutators are public (preemption's dry run needs them on a copy), so a plugin
     * can add a pod to the snapshot it was handed: refusing that needs an API change. The phantom
     * pod then stays in the scheduler's snapshot, never in its cache or the API, until the node
     * changes: the plugins after it in the attempt, and the pod's retries, see a full node; the pod
     * is bound once the node changes.
     */
    @Test
    void aPluginThatAddsAPodToItsSnapshotMisleadsTheAttemptsUntilTheNodeChanges() throws Exception {
        try (SchedulerFixture f = new SchedulerFixture().withBasePlugins()) {
            AtomicBoolean once = new AtomicBoolean();
            f.add(new OnePoint.Filter(Hostile.NAME, (state, pod, node) -> {
                if (once.compareAndSet(false, true)) {
                    node.addPod(Pods.pod("phantom").cpu("4").info());
                }
                return Status.SUCCESS;
            }));
            f.cluster.addNode(Nodes.node("n1").cpu("4").build());
            f.start(SchedulerFixture.HEADER + SchedulerFixture.profile("default-scheduler", Hostile.NAME));
            f.cluster.addPod(Pods.pod("p").cpu("100m").build());
            f.awaitQueued("default/p", "0/1 nodes are available: 1 Insufficient cpu.");
            assertEquals(0, f.scheduler.cache().node("n1").pods().size(), "the cache never saw the phantom");
            f.cluster.updateNode(
                    Nodes.node("n1").cpu("4").label("touched", "yes").build());
            await("p bound once the node changed", () -> f.cluster.bindings().size() == 1);
        }
    }
}
