package io.hotsched.kube;

import static io.hotsched.kube.ApiServerFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.api.framework.PluginFactory;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scheduler's events as a user reads them with the real kubectl of the machine (fails, does not
 * skip, without one): {@code describe pod} of a bound and of an unschedulable pod, and
 * {@code get events --field-selector involvedObject.name=...}.
 */
class DescribeEventsPathTest {

    @TempDir
    Path dir;

    @AutoClose
    private ApiServerFixture api;

    private Path kubeconfig;

    @BeforeEach
    void start() throws Exception {
        api = new ApiServerFixture(Nodes.node("n1").cpu("2").build());
        Map<String, PluginFactory> plugins = ConnectedScheduler.simplePlugins();
        api.connect(plugins);
        kubeconfig = Files.writeString(dir.resolve("kubeconfig"), api.server.kubeconfig());
    }

    private String kubectl(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("kubectl", "--kubeconfig", kubeconfig.toString()));
        command.addAll(List.of(args));
        Process p;
        try {
            p = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (java.io.IOException e) {
            throw new AssertionError("kubectl is needed on the PATH for this test: " + e.getMessage(), e);
        }
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), String.join(" ", command) + " did not end within 60 s");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    @Test
    void describeAndGetEventsShowTheSchedulersEvents() throws Exception {
        api.create(Pods.pod("fits").cpu("1").build());
        api.create(Pods.pod("huge").cpu("3").build());
        await(
                "both events",
                () -> !api.events("Scheduled").isEmpty()
                        && !api.events("FailedScheduling").isEmpty());

        String fits = kubectl("describe", "pod", "fits");
        String fitsEvents = fits.substring(fits.indexOf("Events:"));
        assertTrue(fitsEvents.contains("Normal  Scheduled"), fits);
        assertTrue(fitsEvents.contains("Successfully assigned default/fits to n1"), fits);
        assertFalse(fitsEvents.contains("FailedScheduling"), fits);

        String huge = kubectl("describe", "pod", "huge");
        String hugeEvents = huge.substring(huge.indexOf("Events:"));
        assertTrue(hugeEvents.contains("Warning  FailedScheduling"), huge);
        assertTrue(hugeEvents.contains("0/1 nodes are available: 1 Insufficient cpu."), huge);

        String selected = kubectl("get", "events", "--field-selector", "involvedObject.name=huge");
        List<String> lines = selected.strip().lines().toList();
        assertEquals(2, lines.size(), selected);
        assertTrue(lines.get(1).contains("FailedScheduling") && lines.get(1).contains("pod/huge"), selected);
    }
}
