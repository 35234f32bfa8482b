package io.hotsched.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.embedded.EmbeddedApiServer;
import io.hotsched.plugins.defaults.defaultbinder.DefaultBinder;
import io.hotsched.plugins.defaults.defaultpreemption.DefaultPreemption;
import io.hotsched.plugins.defaults.noderesourcesfit.NodeResourcesFit;
import io.hotsched.plugins.defaults.queuesort.PrioritySort;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * DefaultPreemption over HTTP against the embedded API server: the victim is marked as a
 * disruption target and deleted, the preemptor is nominated and then bound where the victim was;
 * a pod that may not preempt stays pending with the preemption part of the message.
 */
class PreemptionPathTest {

    private static final String CONFIG = """
            apiVersion: kubescheduler.config.k8s.io/v1
            kind: KubeSchedulerConfiguration
            profiles:
            - schedulerName: default-scheduler
              plugins:
                multiPoint:
                  enabled: [{name: PrioritySort}, {name: NodeResourcesFit}, {name: DefaultPreemption}, {name: DefaultBinder}]
                  disabled: [{name: "*"}]
            """;

    private EmbeddedApiServer server;
    private KubernetesClient client;
    private ConnectedScheduler scheduler;
    private Watch watch;
    /** Every version of every pod the API server sent, by name, in order. */
    private final Map<String, List<Pod>> seen = new ConcurrentHashMap<>();

    private final List<String> deleted = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws Exception {
        server = new EmbeddedApiServer().start(0);
        client = server.client();
        client.nodes().resource(Nodes.node("n1").cpu("2").build()).create();
        watch = client.pods().inAnyNamespace().watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, Pod pod) {
                seen.computeIfAbsent(pod.getMetadata().getName(), k -> new CopyOnWriteArrayList<>())
                        .add(pod);
                if (action == Action.DELETED) {
                    deleted.add(pod.getMetadata().getName());
                }
            }

            @Override
            public void onClose(WatcherException e) {}
        });
        Map<String, PluginFactory> plugins = new java.util.LinkedHashMap<>();
        plugins.put(PrioritySort.NAME, new PrioritySort());
        plugins.put(NodeResourcesFit.NAME, new NodeResourcesFit());
        plugins.put(DefaultPreemption.NAME, new DefaultPreemption());
        plugins.put(DefaultBinder.NAME, new DefaultBinder());
        scheduler = new ConnectedScheduler(server.url(), plugins, CONFIG);
    }

    @AfterEach
    void stop() {
        watch.close();
        scheduler.close();
        server.close();
    }

    private static void await(String what, BooleanSupplier c) throws InterruptedException {
        Await.until(what, 20, c);
    }

    private Pod get(String name) {
        return client.pods().inNamespace("default").withName(name).get();
    }

    @Test
    void aHigherPriorityPodEvictsTheLowerOneAndIsBoundInItsPlace() throws Exception {
        client.pods().resource(Pods.pod("low").priority(0).cpu("1500m").build()).create();
        await(
                "low bound",
                () -> get("low") != null && "n1".equals(get("low").getSpec().getNodeName()));

        client.pods()
                .resource(Pods.pod("high").priority(1000).cpu("1500m").build())
                .create();
        await("low deleted", () -> deleted.contains("low"));
        await(
                "high bound to n1",
                () -> get("high") != null && "n1".equals(get("high").getSpec().getNodeName()));

        // the victim was marked before it was deleted, as upstream does
        PodCondition target = seen.get("low").stream()
                .flatMap(p -> p.getStatus() == null || p.getStatus().getConditions() == null
                        ? java.util.stream.Stream.<PodCondition>empty()
                        : p.getStatus().getConditions().stream())
                .filter(c -> "DisruptionTarget".equals(c.getType()))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no DisruptionTarget on low"));
        assertEquals("True", target.getStatus());
        assertEquals("PreemptionByScheduler", target.getReason());
        assertEquals("default-scheduler: preempting to accommodate a higher priority pod", target.getMessage());
        // the preemptor was nominated to the node before it was bound there
        assertTrue(
                seen.get("high").stream()
                        .anyMatch(p -> p.getStatus() != null
                                && "n1".equals(p.getStatus().getNominatedNodeName())),
                "high was nominated to n1");
        await(
                "a Preempted event",
                () -> client.v1().events().inNamespace("default").list().getItems().stream()
                        .anyMatch(e -> "Preempted".equals(e.getReason())
                                && "low".equals(e.getInvolvedObject().getName())
                                && e.getMessage().startsWith("Preempted by pod ")
                                && e.getMessage().endsWith(" on node n1")));
    }

    @Test
    void aPodThatMayNotPreemptStaysPendingWithThePreemptionMessage() throws Exception {
        client.pods().resource(Pods.pod("low").priority(0).cpu("1500m").build()).create();
        await(
                "low bound",
                () -> get("low") != null && "n1".equals(get("low").getSpec().getNodeName()));
        Pod never = Pods.pod("polite").priority(1000).cpu("1500m").build();
        never.getSpec().setPreemptionPolicy("Never");
        client.pods().resource(never).create();
        String expected =
                "0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.";
        await("polite marked unschedulable", () -> {
            Pod p = get("polite");
            return p.getStatus() != null
                    && p.getStatus().getConditions() != null
                    && p.getStatus().getConditions().stream()
                            .anyMatch(c -> "PodScheduled".equals(c.getType()) && expected.equals(c.getMessage()));
        });
        assertEquals("n1", get("low").getSpec().getNodeName(), "low keeps its node");
        assertTrue(!deleted.contains("low"));
    }
}
