package io.hotsched.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v1.Scale;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hotsched.embedded.standins.StandIn;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scale subresource over HTTP: fabric8's scale(), raw PUT and PATCH, and the real kubectl scale. */
class ScaleSubresourceTest {

    static EmbeddedApiServer server;
    static KubernetesClient client;
    static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws IOException {
        server = new EmbeddedApiServer().start(0);
        client = server.client();
        server.startStandIns(EnumSet.of(StandIn.DEPLOYMENT, StandIn.REPLICASET));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static void deployment(String ns, String name, int replicas) {
        client.apps()
                .deployments()
                .inNamespace(ns)
                .resource(new DeploymentBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .withNewSpec()
                        .withReplicas(replicas)
                        .withNewSelector()
                        .addToMatchLabels("app", name)
                        .endSelector()
                        .withTemplate(new PodTemplateSpecBuilder()
                                .withNewMetadata()
                                .addToLabels("app", name)
                                .endMetadata()
                                .withNewSpec()
                                .addNewContainer()
                                .withName("c")
                                .withImage("pause")
                                .endContainer()
                                .endSpec()
                                .build())
                        .endSpec()
                        .build())
                .create();
    }

    private static HttpResponse<String> send(String method, String path, String type, String body) throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create(server.url() + path))
                        .header("Content-Type", type)
                        .method(method, HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static void podsUntil(String ns, String app, int n) throws Exception {
        client.pods()
                .inNamespace(ns)
                .withLabel("app", app)
                .informOnCondition(l -> l.size() == n)
                .get(30, TimeUnit.SECONDS);
    }

    @Test
    void scaleReadsAndWritesReplicasThroughFabric8AndRawRequests() throws Exception {
        deployment("scale", "web", 5);
        podsUntil("scale", "web", 5);
        Scale s =
                client.apps().deployments().inNamespace("scale").withName("web").scale();
        assertEquals(5, s.getSpec().getReplicas());
        assertEquals("app=web", s.getStatus().getSelector());

        client.apps().deployments().inNamespace("scale").withName("web").scale(2);
        podsUntil("scale", "web", 2);
        assertEquals(
                2,
                client.apps()
                        .deployments()
                        .inNamespace("scale")
                        .withName("web")
                        .get()
                        .getSpec()
                        .getReplicas());

        String path = "/apis/apps/v1/namespaces/scale/deployments/web/scale";
        HttpResponse<String> merge = send("PATCH", path, "application/merge-patch+json", "{\"spec\":{\"replicas\":3}}");
        assertEquals(200, merge.statusCode(), merge.body());
        assertTrue(merge.body().contains("\"kind\":\"Scale\""), merge.body());
        assertTrue(merge.body().contains("\"replicas\":3"), merge.body());
        podsUntil("scale", "web", 3);

        HttpResponse<String> jsonPatch = send(
                "PATCH",
                path,
                "application/json-patch+json",
                "[{\"op\":\"replace\",\"path\":\"/spec/replicas\",\"value\":1}]");
        assertEquals(200, jsonPatch.statusCode(), jsonPatch.body());
        podsUntil("scale", "web", 1);

        HttpResponse<String> negative = send(
                "PUT",
                path,
                "application/json",
                "{\"kind\":\"Scale\",\"apiVersion\":\"autoscaling/v1\",\"metadata\":{\"name\":\"web\"},\"spec\":{\"replicas\":-1}}");
        assertEquals(422, negative.statusCode());
        assertTrue(negative.body().contains("spec.replicas: Invalid value: -1: must be greater than or equal to 0"));

        HttpResponse<String> stale = send(
                "PUT",
                path,
                "application/json",
                "{\"kind\":\"Scale\",\"apiVersion\":\"autoscaling/v1\",\"metadata\":{\"name\":\"web\",\"resourceVersion\":\"1\"},"
                        + "\"spec\":{\"replicas\":4}}");
        assertEquals(409, stale.statusCode(), stale.body());

        HttpResponse<String> missing = send(
                "PATCH", "/apis/apps/v1/namespaces/scale/deployments/nope/scale", "application/merge-patch+json", "{}");
        assertEquals(404, missing.statusCode());
        assertTrue(missing.body().contains("deployments.apps \\\"nope\\\" not found"), missing.body());
    }

    @Test
    void statefulSetScaleNamesItsSelector() throws Exception {
        client.apps()
                .statefulSets()
                .inNamespace("scale")
                .resource(new StatefulSetBuilder()
                        .withNewMetadata()
                        .withName("db")
                        .endMetadata()
                        .withNewSpec()
                        .withReplicas(2)
                        .withNewSelector()
                        .addToMatchLabels("app", "db")
                        .addNewMatchExpression()
                        .withKey("tier")
                        .withOperator("In")
                        .withValues("a", "b")
                        .endMatchExpression()
                        .endSelector()
                        .endSpec()
                        .build())
                .create();
        Scale s =
                client.apps().statefulSets().inNamespace("scale").withName("db").scale();
        assertEquals(2, s.getSpec().getReplicas());
        assertEquals("app=db,tier in (a,b)", s.getStatus().getSelector());
    }

    @Test
    void kubectlScaleGivesPods(@TempDir Path dir) throws Exception {
        Path kubeconfig = dir.resolve("kubeconfig");
        Files.writeString(kubeconfig, server.kubeconfig());
        deployment("kubectl", "api", 1);
        podsUntil("kubectl", "api", 1);
        String out = kubectl(kubeconfig, "-n", "kubectl", "scale", "deployment", "api", "--replicas=4");
        assertEquals("deployment.apps/api scaled", out.strip());
        podsUntil("kubectl", "api", 4);
        assertEquals(
                "4",
                kubectl(kubeconfig, "-n", "kubectl", "get", "deployment", "api", "-o", "jsonpath={.spec.replicas}"));
    }

    /** Runs the machine's kubectl; fails (not skips) when there is none. */
    static String kubectl(Path kubeconfig, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("kubectl", "--kubeconfig", kubeconfig.toString()));
        command.addAll(List.of(args));
        Process p;
        try {
            p = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new AssertionError(
                    "this test runs the real kubectl, and there is none on the PATH: " + e.getMessage());
        }
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not end within 60 s");
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), String.join(" ", command) + ":\n" + out);
        return out;
    }
}
