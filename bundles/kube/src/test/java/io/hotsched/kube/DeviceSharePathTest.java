package io.hotsched.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.plugins.deviceshare.DeviceShare;
import io.hotsched.plugins.deviceshare.DeviceShareFactory;
import io.hotsched.testing.Devices;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * DeviceShare over HTTP: the node's Device object reaches the plugin through the cluster
 * connection; PreBind writes the device-allocated annotation the device plugin reads; shares
 * handed out in quick succession never overlap (the in-flight reservations), and a pod that needs
 * a whole GPU waits until one is free although the node's summed GPU resources would fit it.
 */
class DeviceSharePathTest {

    private static final Pattern MINOR = Pattern.compile("\"minor\":(\\d+)");

    @AutoClose
    private ApiServerFixture api;

    @BeforeEach
    void start() throws Exception {
        api = new ApiServerFixture();
        api.create(Nodes.node("gpu-node")
                .cpu("32")
                .memory("128Gi")
                .allocatable("koordinator.sh/gpu-core", "200")
                .allocatable("koordinator.sh/gpu-memory-ratio", "200")
                .allocatable("koordinator.sh/gpu-memory", "32Gi")
                .build());
        GenericKubernetesResource device = new GenericKubernetesResourceBuilder()
                .withApiVersion("scheduling.koordinator.sh/v1alpha1")
                .withKind("Device")
                .withNewMetadata()
                .withName("gpu-node")
                .endMetadata()
                .build();
        List<Object> devices = new ArrayList<>();
        for (int minor = 0; minor < 2; minor++) {
            devices.add(Devices.gpu(minor, "16Gi"));
        }
        device.setAdditionalProperty("spec", Map.of("devices", devices));
        api.client
                .genericKubernetesResources("scheduling.koordinator.sh/v1alpha1", "Device")
                .resource(device)
                .create();
        Map<String, PluginFactory> plugins =
                ConnectedScheduler.defaultPluginsAnd(DeviceShare.NAME, new DeviceShareFactory());
        api.connect(plugins, ConnectedScheduler.config("koord-scheduler", plugins.keySet()));
    }

    private String allocated(String name) {
        Pod p = api.get(name);
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
        api.create(share("half-1", "50", "50"));
        api.create(share("half-2", "50", "50"));
        ApiServerFixture.await("both bound", () -> api.nodeOf("half-1") != null && api.nodeOf("half-2") != null);
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
        api.create(share("whole", "100", "100"));
        ApiServerFixture.await(
                "whole refused for devices",
                () -> api.hasScheduledCondition("whole", "0/1 nodes are available: 1 Insufficient gpu devices."));
        assertEquals(null, api.nodeOf("whole"));

        api.delete("half-2");
        ApiServerFixture.await("whole bound once a GPU is free", () -> api.nodeOf("whole") != null);
        assertEquals(minor(second), minor(allocated("whole")), allocated("whole"));
    }
}
