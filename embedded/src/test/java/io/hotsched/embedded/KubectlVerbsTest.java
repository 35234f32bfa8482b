package io.hotsched.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real kubectl of the machine against the embedded server, one everyday verb at a time, each
 * checked through the API. Fails (does not skip) when there is no kubectl on the PATH.
 */
class KubectlVerbsTest {

    @TempDir
    static Path dir;

    @RegisterExtension
    static final ApiServer API = new ApiServer().withNodes("node-d");

    static Kubectl cli;

    @BeforeAll
    static void kubeconfig() throws IOException {
        cli = new Kubectl(API.kubeconfig(dir));
    }

    static Kubectl.Run kubectl(String... args) throws IOException, InterruptedException {
        return cli.run(args);
    }

    @Test
    void versionAndApiResourcesAreTheReleaseTheServerAnswersAs() throws Exception {
        Kubectl.Run version = kubectl("version", "-o", "json").ok();
        assertTrue(version.out().contains("\"gitVersion\": \"v1.36.0+hotsched\""), version.out());
        assertTrue(version.out().contains("\"minor\": \"36\""), version.out());
        Kubectl.Run storage = kubectl("api-resources", "--api-group=storage.k8s.io", "-o", "name")
                .ok();
        for (String r :
                List.of("csidrivers", "csinodes", "csistoragecapacities", "storageclasses", "volumeattachments")) {
            assertTrue(storage.out().contains(r + ".storage.k8s.io"), storage.out());
        }
    }

    @Test
    void createNamespaceSendsProtobufAndIsCreated() throws Exception {
        kubectl("create", "namespace", "team-a").ok();
        assertNotNull(API.client().namespaces().withName("team-a").get());
    }

    @Test
    void createDeploymentSendsProtobufAndIsCreated() throws Exception {
        kubectl("create", "deployment", "web", "--image=nginx", "--replicas=3").ok();
        var d = API.deployment("web");
        assertNotNull(d);
        assertEquals(3, d.getSpec().getReplicas());
        assertEquals(
                "nginx",
                d.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
    }

    @Test
    void getDeploymentPrintsKubectlsColumns() throws Exception {
        kubectl("create", "deployment", "shown", "--image=nginx", "--replicas=2")
                .ok();
        String out = kubectl("get", "deployment", "shown", "-o", "wide").ok().out();
        String[] lines = out.strip().split("\n");
        assertEquals(
                List.of("NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE", "CONTAINERS", "IMAGES", "SELECTOR"),
                List.of(lines[0].trim().split("\\s+")),
                out);
        List<String> row = List.of(lines[1].trim().split("\\s+"));
        // no stand-ins run here: nothing is ready yet
        assertEquals(List.of("shown", "0/2", "0", "0"), row.subList(0, 4), out);
        assertEquals(List.of("nginx", "nginx", "app=shown"), row.subList(5, 8), out);
    }

    @Test
    void describePodReadsTheJsonAnswer() throws Exception {
        assertNotNull(createPod("described"));
        Kubectl.Run r = kubectl("describe", "pod", "described").ok();
        assertTrue(r.out().contains("Name:") && r.out().contains("described"), r.out());
        assertFalse(r.out().contains("protobuf"), r.out());
    }

    @Test
    void aMissingObjectIsReportedAsKubeApiserverDoes() throws Exception {
        Kubectl.Run r = kubectl("get", "pod", "nope");
        assertEquals(1, r.exit());
        assertTrue(r.out().contains("Error from server (NotFound): pods \"nope\" not found"), r.out());
    }

    private static Pod createPod(String name) throws Exception {
        cli.withInput(
                        "apiVersion: v1\nkind: Pod\nmetadata: {name: " + name + "}\nspec:\n"
                                + "  containers: [{name: c, image: pause}]\n",
                        "create",
                        "-f",
                        "-")
                .ok();
        return API.client().pods().inNamespace("default").withName(name).get();
    }

    @Test
    void labelAndAnnotateAddAndRemove() throws Exception {
        createPod("marked");
        kubectl("label", "pod", "marked", "tier=web").ok();
        kubectl("annotate", "pod", "marked", "note=x").ok();
        Pod p = API.client().pods().inNamespace("default").withName("marked").get();
        assertEquals("web", p.getMetadata().getLabels().get("tier"));
        assertEquals("x", p.getMetadata().getAnnotations().get("note"));
        kubectl("label", "pod", "marked", "tier-").ok();
        kubectl("annotate", "pod", "marked", "note-").ok();
        p = API.client().pods().inNamespace("default").withName("marked").get();
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
        Pod p = API.client().pods().inNamespace("default").withName("patched").get();
        assertEquals(1, p.getSpec().getContainers().size());
        assertEquals("pause:2", p.getSpec().getContainers().get(0).getImage());
        assertEquals("1", p.getMetadata().getLabels().get("m"));
        assertEquals("2", p.getMetadata().getLabels().get("j"));
    }

    @Test
    void cordonDrainUncordon() throws Exception {
        createPod("on-d");
        API.client().pods().inNamespace("default").withName("on-d").edit(x -> {
            x.getSpec().setNodeName("node-d");
            return x;
        });
        kubectl("cordon", "node-d").ok();
        assertEquals(
                true, API.client().nodes().withName("node-d").get().getSpec().getUnschedulable());
        Kubectl.Run drained =
                kubectl("drain", "node-d", "--force", "--timeout=20s").ok();
        assertTrue(drained.out().contains("drained"), drained.out());
        assertEquals(
                null,
                API.client().pods().inNamespace("default").withName("on-d").get(),
                drained.out());
        kubectl("uncordon", "node-d").ok();
        Boolean unschedulable =
                API.client().nodes().withName("node-d").get().getSpec().getUnschedulable();
        assertFalse(unschedulable != null && unschedulable);
    }
}
