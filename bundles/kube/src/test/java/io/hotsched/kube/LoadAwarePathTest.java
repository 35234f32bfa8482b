package io.hotsched.kube;

import static io.hotsched.kube.ApiServerFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.plugins.loadaware.LoadAwareScheduling;
import io.hotsched.plugins.loadaware.LoadAwareSchedulingFactory;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * LoadAwareScheduling over HTTP: NodeMetrics reach the plugin through the cluster connection's
 * informer; a loaded node is avoided by Score and refused by Filter, and a pod refused everywhere
 * is scheduled as soon as a NodeMetric update shows room.
 */
class LoadAwarePathTest {

    @AutoClose
    private ApiServerFixture api;

    @BeforeEach
    void start() throws Exception {
        api = new ApiServerFixture(
                Nodes.node("busy").cpu("8").memory("32Gi").build(),
                Nodes.node("idle").cpu("8").memory("32Gi").build());
        metric("busy", "6", "8Gi");
        metric("idle", "1", "8Gi");
        Map<String, PluginFactory> plugins =
                ConnectedScheduler.defaultPluginsAnd(LoadAwareScheduling.NAME, new LoadAwareSchedulingFactory());
        String config = ConnectedScheduler.config("koord-scheduler", plugins.keySet()) + """
                  pluginConfig:
                  - name: LoadAwareScheduling
                    args:
                      usageThresholds: {cpu: 70, memory: 95}
                """;
        api.connect(plugins, config);
    }

    /** Creates or replaces the node's NodeMetric, updated now; returns the version the API server stored. */
    private String metric(String node, String cpu, String memory) {
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
        return api.client
                .genericKubernetesResources("slo.koordinator.sh/v1alpha1", "NodeMetric")
                .resource(m)
                .createOr(r -> r.update())
                .getMetadata()
                .getResourceVersion();
    }

    @Test
    void theLessLoadedNodeWinsAndALoadedOneIsRefused() throws Exception {
        // requests alone would tie; the measured load decides
        api.create(Pods.pod("light").scheduler("koord-scheduler").cpu("500m").build());
        await("light bound", () -> api.nodeOf("light") != null);
        assertEquals("idle", api.nodeOf("light"));

        // 6 of 8 cpu used on busy: 1 more (estimated at 85%) makes 86% > 70%; idle is at 1 + 0.425 + 0.85 = 28%
        api.create(Pods.pod("heavy").scheduler("koord-scheduler").cpu("1").build());
        await("heavy bound", () -> api.nodeOf("heavy") != null);
        assertEquals("idle", api.nodeOf("heavy"));
    }

    @Test
    void aPodRefusedEverywhereIsScheduledWhenANodeMetricShowsRoom() throws Exception {
        String loaded = metric("idle", "6", "8Gi");
        // the pod must meet the new load, not the one before
        await("the scheduler has the update", () -> api.scheduler.hasSeen("NodeMetric", "idle", loaded));
        api.create(Pods.pod("waiting").scheduler("koord-scheduler").cpu("1").build());
        await(
                "refused for load",
                () -> api.hasScheduledCondition(
                        "waiting", "0/2 nodes are available: 2 node(s) cpu usage exceed threshold."));
        assertEquals(null, api.nodeOf("waiting"));

        metric("busy", "2", "8Gi");
        await("scheduled after the NodeMetric update", () -> "busy".equals(api.nodeOf("waiting")));
    }
}
