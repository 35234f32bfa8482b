package io.hotsched.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.embedded.EmbeddedApiServer;
import io.hotsched.plugins.defaults.defaultbinder.DefaultBinder;
import io.hotsched.plugins.defaults.noderesourcesfit.NodeResourcesFit;
import io.hotsched.plugins.defaults.queuesort.PrioritySort;
import io.hotsched.plugins.loadaware.LoadAwareScheduling;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.time.Instant;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * LoadAwareScheduling over HTTP: NodeMetrics reach the plugin through the cluster connection's
 * informer; a loaded node is avoided by Score and refused by Filter, and a pod refused everywhere
 * is scheduled as soon as a NodeMetric update shows room.
 */
class LoadAwarePathTest {

    private static final String CONFIG = """
            apiVersion: kubescheduler.config.k8s.io/v1
            kind: KubeSchedulerConfiguration
            profiles:
            - schedulerName: koord-scheduler
              plugins:
                multiPoint:
                  enabled: [{name: PrioritySort}, {name: NodeResourcesFit}, {name: LoadAwareScheduling}, {name: DefaultBinder}]
                  disabled: [{name: "*"}]
              pluginConfig:
              - name: LoadAwareScheduling
                args:
                  usageThresholds: {cpu: 70, memory: 95}
            """;

    private EmbeddedApiServer server;
    private KubernetesClient client;
    private ConnectedScheduler scheduler;

    @BeforeEach
    void start() throws Exception {
        server = new EmbeddedApiServer().start(0);
        client = server.client();
        client.nodes()
                .resource(Nodes.node("busy").cpu("8").memory("32Gi").build())
                .create();
        client.nodes()
                .resource(Nodes.node("idle").cpu("8").memory("32Gi").build())
                .create();
        metric("busy", "6", "8Gi");
        metric("idle", "1", "8Gi");
        Map<String, PluginFactory> plugins = new java.util.LinkedHashMap<>();
        plugins.put(PrioritySort.NAME, new PrioritySort());
        plugins.put(NodeResourcesFit.NAME, new NodeResourcesFit());
        plugins.put(LoadAwareScheduling.NAME, new LoadAwareScheduling());
        plugins.put(DefaultBinder.NAME, new DefaultBinder());
        scheduler = new ConnectedScheduler(server.url(), plugins, CONFIG);
    }

    @AfterEach
    void stop() {
        scheduler.close();
        server.close();
    }

    /** Creates or replaces the node's NodeMetric, updated now. */
    private void metric(String node, String cpu, String memory) {
        GenericKubernetesResource m = new GenericKubernetesResourceBuilder()
                .withApiVersion("slo.koordinator.sh/v1alpha1")
                .withKind("NodeMetric")
                .withNewMetadata()
                .withName(node)
                .endMetadata()
                .build();
        m.setAdditionalProperty(
                "status",
                Map.of(
                        "updateTime",
                        Instant.now().toString(),
                        "nodeMetric",
                        Map.of("nodeUsage", Map.of("resources", Map.of("cpu", cpu, "memory", memory)))));
        client.genericKubernetesResources("slo.koordinator.sh/v1alpha1", "NodeMetric")
                .resource(m)
                .createOr(r -> r.update());
    }

    private static void await(String what, BooleanSupplier c) throws InterruptedException {
        Await.until(what, 20, c);
    }

    private Pod get(String name) {
        return client.pods().inNamespace("default").withName(name).get();
    }

    private String nodeOf(String name) {
        Pod p = get(name);
        return p == null ? null : p.getSpec().getNodeName();
    }

    @Test
    void theLessLoadedNodeWinsAndALoadedOneIsRefused() throws Exception {
        // requests alone would tie; the measured load decides
        client.pods()
                .resource(Pods.pod("light")
                        .scheduler("koord-scheduler")
                        .cpu("500m")
                        .build())
                .create();
        await("light bound", () -> nodeOf("light") != null);
        assertEquals("idle", nodeOf("light"));

        // 6 of 8 cpu used on busy: 1 more (estimated at 85%) makes 86% > 70%; idle is at 1 + 0.425 + 0.85 = 28%
        client.pods()
                .resource(
                        Pods.pod("heavy").scheduler("koord-scheduler").cpu("1").build())
                .create();
        await("heavy bound", () -> nodeOf("heavy") != null);
        assertEquals("idle", nodeOf("heavy"));
    }

    @Test
    void aPodRefusedEverywhereIsScheduledWhenANodeMetricShowsRoom() throws Exception {
        metric("idle", "6", "8Gi");
        Thread.sleep(500);
        client.pods()
                .resource(Pods.pod("waiting")
                        .scheduler("koord-scheduler")
                        .cpu("1")
                        .build())
                .create();
        await("refused for load", () -> {
            Pod p = get("waiting");
            return p.getStatus() != null
                    && p.getStatus().getConditions() != null
                    && p.getStatus().getConditions().stream()
                            .anyMatch(c -> "PodScheduled".equals(c.getType())
                                    && c.getMessage() != null
                                    && c.getMessage()
                                            .equals("0/2 nodes are available: 2 node(s) cpu usage exceed threshold."));
        });
        assertEquals(null, nodeOf("waiting"));

        metric("busy", "2", "8Gi");
        await("scheduled after the NodeMetric update", () -> "busy".equals(nodeOf("waiting")));
    }
}
