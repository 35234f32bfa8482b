package io.hotsched.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real kubectl of the machine against the embedded server, one everyday verb at a time, each
 * checked through the API. Fails (does not skip) when there is no kubectl on the PATH.
 */
class KubectlVerbsTest {

    @TempDir
    static Path dir;

    static EmbeddedApiServer server;
    static KubernetesClient client;
    static Path kubeconfig;

    @BeforeAll
    static void start() throws Exception {
        server = new EmbeddedApiServer().start(0);
        client = server.client();
        kubeconfig = dir.resolve("kubeconfig");
        Files.writeString(kubeconfig, server.kubeconfig());
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** What one kubectl run printed, and how it ended. */
    record Run(int exit, String out) {
        Run ok() {
            assertEquals(0, exit, out);
            return this;
        }
    }

    static Run kubectl(String... args) throws IOException, InterruptedException {
        return kubectlWithInput(null, args);
    }

    static Run kubectlWithInput(String stdin, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("kubectl", "--kubeconfig", kubeconfig.toString()));
        command.addAll(List.of(args));
        Process p;
        try {
            p = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            fail("kubectl is needed on the PATH for this test (v1.32 is what the project checks with): "
                    + e.getMessage());
            throw e;
        }
        if (stdin != null) {
            p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        p.getOutputStream().close();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("kubectl " + String.join(" ", args) + " did not finish in 30 s");
        }
        return new Run(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    @Test
    void createNamespaceSendsProtobufAndIsCreated() throws Exception {
        kubectl("create", "namespace", "team-a").ok();
        assertNotNull(client.namespaces().withName("team-a").get());
    }

    @Test
    void createDeploymentSendsProtobufAndIsCreated() throws Exception {
        kubectl("create", "deployment", "web", "--image=nginx", "--replicas=3").ok();
        var d = client.apps()
                .deployments()
                .inNamespace("default")
                .withName("web")
                .get();
        assertNotNull(d);
        assertEquals(3, d.getSpec().getReplicas());
        assertEquals(
                "nginx",
                d.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
    }

    @Test
    void describePodReadsTheJsonAnswer() throws Exception {
        assertNotNull(createPod("described"));
        Run r = kubectl("describe", "pod", "described").ok();
        assertTrue(r.out().contains("Name:") && r.out().contains("described"), r.out());
        assertFalse(r.out().contains("protobuf"), r.out());
    }

    @Test
    void aMissingObjectIsReportedAsKubeApiserverDoes() throws Exception {
        Run r = kubectl("get", "pod", "nope");
        assertEquals(1, r.exit());
        assertTrue(r.out().contains("Error from server (NotFound): pods \"nope\" not found"), r.out());
    }

    private static Pod createPod(String name) throws Exception {
        kubectlWithInput(
                        "apiVersion: v1\nkind: Pod\nmetadata: {name: " + name + "}\nspec:\n"
                                + "  containers: [{name: c, image: pause}]\n",
                        "create",
                        "--validate=false",
                        "-f",
                        "-")
                .ok();
        return client.pods().inNamespace("default").withName(name).get();
    }

    @Test
    void labelAndAnnotateAddAndRemove() throws Exception {
        createPod("marked");
        kubectl("label", "pod", "marked", "tier=web").ok();
        kubectl("annotate", "pod", "marked", "note=x").ok();
        Pod p = client.pods().inNamespace("default").withName("marked").get();
        assertEquals("web", p.getMetadata().getLabels().get("tier"));
        assertEquals("x", p.getMetadata().getAnnotations().get("note"));
        kubectl("label", "pod", "marked", "tier-").ok();
        kubectl("annotate", "pod", "marked", "note-").ok();
        p = client.pods().inNamespace("default").withName("marked").get();
        assertFalse(p.getMetadata().getLabels() != null
                && p.getMetadata().getLabels().containsKey("tier"));
        assertFalse(p.getMetadata().getAnnotations() != null
                && p.getMetadata().getAnnotations().containsKey("note"));
    }

    @Test
    void patchOfAllThreeTypes() throws Exception {
        createPod("patched");
        kubectl("patch", "pod", "patched", "-p", "{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"pause:2\"}]}}")
                .ok();
        kubectl("patch", "pod", "patched", "--type=merge", "-p", "{\"metadata\":{\"labels\":{\"m\":\"1\"}}}")
                .ok();
        kubectl(
                        "patch",
                        "pod",
                        "patched",
                        "--type=json",
                        "-p",
                        "[{\"op\":\"add\",\"path\":\"/metadata/labels/j\",\"value\":\"2\"}]")
                .ok();
        Pod p = client.pods().inNamespace("default").withName("patched").get();
        assertEquals(1, p.getSpec().getContainers().size());
        assertEquals("pause:2", p.getSpec().getContainers().get(0).getImage());
        assertEquals("1", p.getMetadata().getLabels().get("m"));
        assertEquals("2", p.getMetadata().getLabels().get("j"));
    }

    @Test
    void cordonDrainUncordon() throws Exception {
        client.nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName("node-d")
                        .endMetadata()
                        .build())
                .create();
        createPod("on-d");
        client.pods().inNamespace("default").withName("on-d").edit(x -> {
            x.getSpec().setNodeName("node-d");
            return x;
        });
        kubectl("cordon", "node-d").ok();
        assertEquals(true, client.nodes().withName("node-d").get().getSpec().getUnschedulable());
        Run drained = kubectl("drain", "node-d", "--force", "--timeout=20s").ok();
        assertTrue(drained.out().contains("drained"), drained.out());
        assertEquals(null, client.pods().inNamespace("default").withName("on-d").get(), drained.out());
        kubectl("uncordon", "node-d").ok();
        Boolean unschedulable =
                client.nodes().withName("node-d").get().getSpec().getUnschedulable();
        assertFalse(unschedulable != null && unschedulable);
    }
}
