package io.hotsched.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.embedded.EmbeddedApiServer;
import io.hotsched.plugins.defaults.defaultbinder.DefaultBinder;
import io.hotsched.plugins.defaults.noderesourcesfit.NodeResourcesFit;
import io.hotsched.plugins.defaults.queuesort.PrioritySort;
import io.hotsched.plugins.deviceshare.DeviceShare;
import io.hotsched.plugins.deviceshare.DeviceShareFactory;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * DeviceShare over HTTP: the node's Device object reaches the plugin through the cluster
 * connection; PreBind writes the device-allocated annotation the device plugin reads; shares
 * handed out in quick succession never overlap (the in-flight reservations), and a pod that needs
 * a whole GPU waits until one is free although the node's summed GPU resources would fit it.
 */
class DeviceSharePathTest {

    private static final String CONFIG = """
            apiVersion: kubescheduler.config.k8s.io/v1
            kind: KubeSchedulerConfiguration
            profiles:
            - schedulerName: koord-scheduler
              plugins:
                multiPoint:
                  enabled: [{name: PrioritySort}, {name: NodeResourcesFit}, {name: DeviceShare}, {name: DefaultBinder}]
                  disabled: [{name: "*"}]
            """;
    private static final Pattern MINOR = Pattern.compile("\"minor\":(\\d+)");

    private EmbeddedApiServer server;
    private KubernetesClient client;
    private ConnectedScheduler scheduler;

    @BeforeEach
    void start() throws Exception {
        server = new EmbeddedApiServer().start(0);
        client = server.client();
        client.nodes()
                .resource(Nodes.node("gpu-node")
                        .cpu("32")
                        .memory("128Gi")
                        .allocatable("koordinator.sh/gpu-core", "200")
                        .allocatable("koordinator.sh/gpu-memory-ratio", "200")
                        .allocatable("koordinator.sh/gpu-memory", "32Gi")
                        .build())
                .create();
        GenericKubernetesResource device = new GenericKubernetesResourceBuilder()
                .withApiVersion("scheduling.koordinator.sh/v1alpha1")
                .withKind("Device")
                .withNewMetadata()
                .withName("gpu-node")
                .endMetadata()
                .build();
        List<Object> devices = new ArrayList<>();
        for (int minor = 0; minor < 2; minor++) {
            devices.add(Map.of(
                    "type",
                    "gpu",
                    "id",
                    "GPU-" + minor,
                    "minor",
                    minor,
                    "health",
                    true,
                    "resources",
                    Map.of(
                            "koordinator.sh/gpu-core",
                            "100",
                            "koordinator.sh/gpu-memory-ratio",
                            "100",
                            "koordinator.sh/gpu-memory",
                            "16Gi")));
        }
        device.setAdditionalProperty("spec", Map.of("devices", devices));
        client.genericKubernetesResources("scheduling.koordinator.sh/v1alpha1", "Device")
                .resource(device)
                .create();
        Map<String, PluginFactory> plugins = new java.util.LinkedHashMap<>();
        plugins.put(PrioritySort.NAME, new PrioritySort());
        plugins.put(NodeResourcesFit.NAME, new NodeResourcesFit());
        plugins.put(DeviceShare.NAME, new DeviceShareFactory());
        plugins.put(DefaultBinder.NAME, new DefaultBinder());
        scheduler = new ConnectedScheduler(server.url(), plugins, CONFIG);
    }

    @AfterEach
    void stop() {
        scheduler.close();
        server.close();
    }

    private Pod get(String name) {
        return client.pods().inNamespace("default").withName(name).get();
    }

    private String nodeOf(String name) {
        Pod p = get(name);
        return p == null ? null : p.getSpec().getNodeName();
    }

    private String allocated(String name) {
        Pod p = get(name);
        return p == null || p.getMetadata().getAnnotations() == null
                ? null
                : p.getMetadata().getAnnotations().get("scheduling.koordinator.sh/device-allocated");
    }

    private static int minor(String annotation) {
        Matcher m = MINOR.matcher(annotation);
        if (!m.find()) {
            throw new AssertionError("no minor in " + annotation);
        }
        return Integer.parseInt(m.group(1));
    }

    private Pod share(String name, String core, String ratio) {
        return Pods.pod(name)
                .scheduler("koord-scheduler")
                .cpu("1")
                .request("koordinator.sh/gpu-core", core)
                .request("koordinator.sh/gpu-memory-ratio", ratio)
                .build();
    }

    @Test
    void sharesSpreadOverTheGpusAndAWholeGpuWaitsForOne() throws Exception {
        // created together: the second is placed before the first's annotation comes back
        client.pods().resource(share("half-1", "50", "50")).create();
        client.pods().resource(share("half-2", "50", "50")).create();
        Await.until("both bound", 20, () -> nodeOf("half-1") != null && nodeOf("half-2") != null);
        String first = allocated("half-1");
        String second = allocated("half-2");
        // LeastAllocated (the default) spreads: one share per GPU
        assertNotEquals(minor(first), minor(second), first + " / " + second);
        assertEquals(
                "{\"gpu\":[{\"minor\":" + minor(first)
                        + ",\"resources\":{\"koordinator.sh/gpu-core\":\"50\",\"koordinator.sh/gpu-memory\":\"8Gi\","
                        + "\"koordinator.sh/gpu-memory-ratio\":\"50\"},\"id\":\"GPU-" + minor(first) + "\"}]}",
                first);

        // 100 of 200 gpu-core left on the node, so NodeResourcesFit lets it pass; no single GPU has 100
        client.pods().resource(share("whole", "100", "100")).create();
        Await.until("whole refused for devices", 20, () -> {
            Pod p = get("whole");
            return p.getStatus() != null
                    && p.getStatus().getConditions() != null
                    && p.getStatus().getConditions().stream()
                            .anyMatch(c -> "PodScheduled".equals(c.getType())
                                    && "0/1 nodes are available: 1 Insufficient gpu devices.".equals(c.getMessage()));
        });
        assertEquals(null, nodeOf("whole"));

        client.pods().inNamespace("default").withName("half-2").delete();
        Await.until("whole bound once a GPU is free", 20, () -> nodeOf("whole") != null);
        assertEquals(minor(second), minor(allocated("whole")), allocated("whole"));
    }
}
