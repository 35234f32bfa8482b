package io.hotsched.kube;

import static io.hotsched.kube.ApiServerFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.core.scheduler.FeatureGates;
import io.hotsched.plugins.defaults.defaultpreemption.DefaultPreemption;
import io.hotsched.plugins.defaults.defaultpreemption.DefaultPreemptionFactory;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * DefaultPreemption over HTTP against the embedded API server: the victim is marked as a
 * disruption target and deleted, the preemptor is nominated and then bound where the victim was;
 * a pod that may not preempt stays pending with the preemption part of the message.
 */
class PreemptionPathTest {

    @AutoClose
    private ApiServerFixture api;

    @BeforeEach
    void start() throws Exception {
        api = new ApiServerFixture(Nodes.node("n1").cpu("2").build());
        Map<String, PluginFactory> plugins =
                ConnectedScheduler.defaultPluginsAnd(DefaultPreemption.NAME, new DefaultPreemptionFactory());
        api.connect(plugins);
    }

    @Test
    void aHigherPriorityPodEvictsTheLowerOneAndIsBoundInItsPlace() throws Exception {
        api.create(Pods.pod("low").priority(0).cpu("1500m").build());
        await("low bound", () -> "n1".equals(api.nodeOf("low")));

        api.create(Pods.pod("high").priority(1000).cpu("1500m").build());
        await("low deleted", () -> api.deleted.contains("low"));
        await("high bound to n1", () -> "n1".equals(api.nodeOf("high")));

        // the victim was marked before it was deleted, as upstream does
        PodCondition target = api.seen.get("low").stream()
                .flatMap(p -> p.getStatus() == null || p.getStatus().getConditions() == null
                        ? Stream.<PodCondition>empty()
                        : p.getStatus().getConditions().stream())
                .filter(c -> "DisruptionTarget".equals(c.getType()))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no DisruptionTarget on low"));
        assertEquals("True", target.getStatus());
        assertEquals("PreemptionByScheduler", target.getReason());
        assertEquals("default-scheduler: preempting to accommodate a higher priority pod", target.getMessage());
        // the preemptor was nominated to the node before it was bound there
        assertTrue(
                api.seen.get("high").stream()
                        .anyMatch(p -> p.getStatus() != null
                                && "n1".equals(p.getStatus().getNominatedNodeName())),
                "high was nominated to n1");
        await(
                "a Preempted event",
                () -> api.events("Preempted").stream()
                        .anyMatch(e -> "low".equals(e.getInvolvedObject().getName())
                                && e.getMessage().startsWith("Preempted by pod ")
                                && e.getMessage().endsWith(" on node n1")));
    }

    @Test
    void aPodThatMayNotPreemptStaysPendingWithThePreemptionMessage() throws Exception {
        api.create(Pods.pod("low").priority(0).cpu("1500m").build());
        await("low bound", () -> "n1".equals(api.nodeOf("low")));
        Pod never = Pods.pod("polite").priority(1000).cpu("1500m").build();
        never.getSpec().setPreemptionPolicy("Never");
        api.create(never);
        String expected =
                "0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.";
        await("polite marked unschedulable", () -> api.hasScheduledCondition("polite", expected));
        assertEquals("n1", api.nodeOf("low"), "low keeps its node");
        assertTrue(!api.deleted.contains("low"));
    }

    /**
     * The same cluster and pods with SchedulerAsyncPreemption on (the default) and off: the same
     * victims are deleted, the preemptor is nominated and bound to the same node, and every other
     * pod keeps its node.
     */
    @Test
    void asynchronousPreemptionEndsAsTheSynchronousOneDoes() throws Exception {
        List<String> async = preemptOnTwoNodes(true);
        List<String> sync = preemptOnTwoNodes(false);
        assertEquals(sync, async);
        assertEquals(List.of("deleted [a, b]", "high on n1, nominated n1", "c on n2", "d on n2"), async);
    }

    private static List<String> preemptOnTwoNodes(boolean async) throws Exception {
        try (ApiServerFixture f = new ApiServerFixture(
                Nodes.node("n1").cpu("2").build(), Nodes.node("n2").cpu("2").build())) {
            Map<String, PluginFactory> plugins =
                    ConnectedScheduler.defaultPluginsAnd(DefaultPreemption.NAME, new DefaultPreemptionFactory());
            f.connect(plugins).scheduler.setFeatureGates(FeatureGates.parse("SchedulerAsyncPreemption=" + async));
            // n1's pods are the cheaper to evict: lower priorities than n2's
            f.create(Pods.pod("a").priority(0).cpu("1").node("n1").build());
            f.create(Pods.pod("b").priority(5).cpu("1").node("n1").build());
            f.create(Pods.pod("c").priority(10).cpu("1").node("n2").build());
            f.create(Pods.pod("d").priority(10).cpu("1").node("n2").build());
            f.create(Pods.pod("high").priority(1000).cpu("2").build());
            await("high bound", () -> f.nodeOf("high") != null);
            await("two deletions seen", () -> f.deleted.size() >= 2);
            boolean nominated = f.seen.get("high").stream()
                    .anyMatch(p -> p.getStatus() != null
                            && f.nodeOf("high").equals(p.getStatus().getNominatedNodeName()));
            List<String> deleted = f.deleted.stream().sorted().toList();
            return List.of(
                    "deleted " + deleted,
                    "high on " + f.nodeOf("high") + (nominated ? ", nominated " + f.nodeOf("high") : ", not nominated"),
                    "c on " + f.nodeOf("c"),
                    "d on " + f.nodeOf("d"));
        }
    }
}
