package io.hotsched.itests;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;

/**
 * The shipped DeviceShare bundle in Felix: a GPU profile runs on it; deleting it from deploy/
 * pauses that profile (the admin view says which plugin it waits for) while nothing is bound;
 * putting it back resumes it, and the new instance knows the GPUs handed out before from the pods'
 * annotations, so nothing is given twice.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class DeviceShareIT extends InMemoryClusterSupport {

    static final String CONFIG = """
            apiVersion: kubescheduler.config.k8s.io/v1
            kind: KubeSchedulerConfiguration
            profiles:
            - schedulerName: gpu-scheduler
              plugins:
                multiPoint:
                  enabled: [{name: PrioritySort}, {name: NodeResourcesFit}, {name: DeviceShare}, {name: DefaultBinder}]
                  disabled: [{name: "*"}]
            """;
    private static final Pattern MINOR = Pattern.compile("\"minor\":(\\d+)");

    @Override
    protected String schedulerYaml() {
        return CONFIG;
    }

    private int minorOf(String name) {
        Pod p = cluster.pod("default", name);
        String a = p.getMetadata().getAnnotations() == null
                ? null
                : p.getMetadata().getAnnotations().get("scheduling.koordinator.sh/device-allocated");
        Matcher m = MINOR.matcher(String.valueOf(a));
        assertTrue("device-allocated of " + name + ": " + a, m.find());
        return Integer.parseInt(m.group(1));
    }

    private static Pod gpuPod(String name, String percent) {
        return Pods.pod(name)
                .scheduler("gpu-scheduler")
                .cpu("1")
                .request("koordinator.sh/gpu-core", percent)
                .request("koordinator.sh/gpu-memory-ratio", percent)
                .build();
    }

    @Test
    public void theGpuProfilePausesWithoutTheBundleAndResumesWithItsAllocationsIntact() throws Exception {
        newCluster();
        cluster.addNode(Nodes.node("g1")
                .cpu("16")
                .memory("64Gi")
                .allocatable("koordinator.sh/gpu-core", "200")
                .allocatable("koordinator.sh/gpu-memory-ratio", "200")
                .allocatable("koordinator.sh/gpu-memory", "32Gi")
                .build());
        GenericKubernetesResource device = new GenericKubernetesResourceBuilder()
                .withApiVersion("scheduling.koordinator.sh/v1alpha1")
                .withKind("Device")
                .withNewMetadata()
                .withName("g1")
                .endMetadata()
                .build();
        List<Object> gpus = new ArrayList<>();
        for (int minor = 0; minor < 2; minor++) {
            gpus.add(Map.of(
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
        device.setAdditionalProperty("spec", Map.of("devices", gpus));
        cluster.putObject("Device", device);
        connect();
        drop("io.hotsched.plugins.defaults.jar", shipped("io.hotsched.plugins.defaults-"));
        await("waiting for DeviceShare", () -> profileState().equals("paused: waiting for plugin(s) DeviceShare"));

        Path jar = drop("io.hotsched.plugin.deviceshare.jar", shipped("io.hotsched.plugin.deviceshare-"));
        cluster.addPod(gpuPod("half", "50"));
        await("half bound", () -> "g1".equals(nodeOf("half")));
        int halfMinor = minorOf("half");

        Files.delete(jar);
        await("paused once the bundle left", () -> profileState().equals("paused: waiting for plugin(s) DeviceShare"));
        cluster.addPod(gpuPod("whole", "100"));
        awaitParked("default/whole", "gpu-scheduler");
        assertEquals("a paused profile binds nothing", null, nodeOf("whole"));

        drop("io.hotsched.plugin.deviceshare.jar", shipped("io.hotsched.plugin.deviceshare-"));
        await("whole bound once the bundle is back", () -> "g1".equals(nodeOf("whole")));
        assertEquals("ready", profileState());
        // the returning instance read half's annotation: the whole GPU is the other one
        assertNotEquals(halfMinor, minorOf("whole"));

        // the GPU left with room is half's
        cluster.addPod(gpuPod("second-half", "50"));
        await("second-half bound", () -> "g1".equals(nodeOf("second-half")));
        assertEquals(halfMinor, minorOf("second-half"));
    }
}
