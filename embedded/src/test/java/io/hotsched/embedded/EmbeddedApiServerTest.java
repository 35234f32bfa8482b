package io.hotsched.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded server over HTTP: binding semantics, watches, discovery, seeding. */
class EmbeddedApiServerTest {

    static EmbeddedApiServer server;
    static KubernetesClient client;

    @BeforeAll
    static void start() throws Exception {
        server = new EmbeddedApiServer().start(0);
        client = server.client();
        client.nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName("n1")
                        .endMetadata()
                        .build())
                .create();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Pod pod(String name) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("default")
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("c")
                .withImage("pause")
                .endContainer()
                .endSpec()
                .build();
    }

    private static String phase(String ns, String name) {
        Pod p = client.pods().inNamespace(ns).withName(name).get();
        return p.getStatus() == null ? null : p.getStatus().getPhase();
    }

    private static void bind(String ns, String pod, String node) {
        client.bindings()
                .inNamespace(ns)
                .resource(new BindingBuilder()
                        .withNewMetadata()
                        .withName(pod)
                        .endMetadata()
                        .withNewTarget()
                        .withKind("Node")
                        .withName(node)
                        .endTarget()
                        .build())
                .create();
    }

    @Test
    void theBindingSubresourceOfAPod() throws Exception {
        client.pods().resource(pod("sub")).create();
        HttpResponse<String> r = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/namespaces/default/pods/sub/binding"))
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(
                                        "{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":\"sub\"},"
                                                + "\"target\":{\"kind\":\"Node\",\"name\":\"n1\"}}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertEquals(201, r.statusCode(), r.body());
        assertEquals(
                "n1",
                client.pods()
                        .inNamespace("default")
                        .withName("sub")
                        .get()
                        .getSpec()
                        .getNodeName());
    }

    @Test
    void bindingSetsNodeNameOnceAndWatchersSeeIt() throws Exception {
        client.pods().resource(pod("b1")).create();
        CountDownLatch seen = new CountDownLatch(1);
        Watch w = client.pods().inNamespace("default").withName("b1").watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, Pod p) {
                if (action == Action.MODIFIED && "n1".equals(p.getSpec().getNodeName())) {
                    seen.countDown();
                }
            }

            @Override
            public void onClose(WatcherException e) {}
        });
        bind("default", "b1", "n1");
        assertTrue(seen.await(10, TimeUnit.SECONDS), "watcher saw the binding");
        w.close();
        assertEquals(
                "n1",
                client.pods()
                        .inNamespace("default")
                        .withName("b1")
                        .get()
                        .getSpec()
                        .getNodeName());

        KubernetesClientException again = org.junit.jupiter.api.Assertions.assertThrows(
                KubernetesClientException.class, () -> bind("default", "b1", "n2"));
        assertEquals(409, again.getCode());
        assertTrue(again.getMessage().contains("already assigned to node \"n1\""), again.getMessage());
    }

    @Test
    void bindingAMissingPodIs404AndTheBindingsEndpointWorks() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        String binding =
                "{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":\"%s\"},\"target\":{\"kind\":\"Node\",\"name\":\"n1\"}}";
        HttpResponse<String> missing = http.send(
                HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/namespaces/default/bindings"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(binding.formatted("ghost")))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(404, missing.statusCode());
        client.pods().resource(pod("b2")).create();
        HttpResponse<String> ok = http.send(
                HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/namespaces/default/bindings"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(binding.formatted("b2")))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(201, ok.statusCode());
        assertEquals(
                "n1",
                client.pods()
                        .inNamespace("default")
                        .withName("b2")
                        .get()
                        .getSpec()
                        .getNodeName());
    }

    @Test
    void podFieldSelectorsOnNodeNameAndPhase() {
        client.pods().resource(pod("fs-unbound")).create();
        client.pods().resource(pod("fs-bound")).create();
        bind("default", "fs-bound", "n1");
        var unbound = client.pods()
                .inNamespace("default")
                .withField("spec.nodeName", "")
                .list()
                .getItems();
        assertTrue(unbound.stream().anyMatch(p -> p.getMetadata().getName().equals("fs-unbound")));
        assertTrue(unbound.stream().noneMatch(p -> p.getSpec().getNodeName() != null));
        var onN1 = client.pods()
                .inNamespace("default")
                .withField("spec.nodeName", "n1")
                .list()
                .getItems();
        assertTrue(onN1.stream().anyMatch(p -> p.getMetadata().getName().equals("fs-bound")));
        assertTrue(onN1.stream().allMatch(p -> "n1".equals(p.getSpec().getNodeName())));
        var notSucceeded = client.pods()
                .inNamespace("default")
                .withoutField("status.phase", "Succeeded")
                .list()
                .getItems();
        assertTrue(notSucceeded.size() >= 2);
        var byName = client.pods()
                .inNamespace("default")
                .withField("metadata.name", "fs-bound")
                .withField("spec.nodeName", "n1")
                .list()
                .getItems();
        assertEquals(1, byName.size(), "the stock server still answers metadata.name");
    }

    @Test
    void kubectlsTableRequestGetsPodAndNodeColumns() throws Exception {
        client.pods().resource(pod("tbl")).create();
        bind("default", "tbl", "n1");
        String accept =
                "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> pods = http.send(
                HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/namespaces/default/pods/tbl"))
                        .header("Accept", accept)
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, pods.statusCode(), pods.body());
        tools.jackson.databind.JsonNode t =
                tools.jackson.databind.json.JsonMapper.builder().build().readTree(pods.body());
        assertEquals("Table", t.path("kind").asText());
        assertEquals("Node", t.path("columnDefinitions").get(6).path("name").asText());
        assertEquals(1, t.path("columnDefinitions").get(6).path("priority").asInt(), "Node is a wide column");
        tools.jackson.databind.JsonNode cells = t.path("rows").get(0).path("cells");
        assertEquals("tbl", cells.get(0).asText());
        assertEquals("n1", cells.get(6).asText());
        assertEquals(
                "default",
                t.path("rows")
                        .get(0)
                        .path("object")
                        .path("metadata")
                        .path("namespace")
                        .asText());

        HttpResponse<String> nodes = http.send(
                HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/nodes"))
                        .header("Accept", accept)
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertTrue(nodes.body().contains("\"cells\":[\"n1\",\"Ready\""), nodes.body());
        // a client that does not ask for a Table gets the objects
        assertEquals(
                "tbl",
                client.pods()
                        .inNamespace("default")
                        .withName("tbl")
                        .get()
                        .getMetadata()
                        .getName());
    }

    @Test
    void theKoordletStandInReportsNodeMetricsAgain() {
        var metrics = client.genericKubernetesResources("slo.koordinator.sh/v1alpha1", "NodeMetric");
        io.fabric8.kubernetes.api.model.GenericKubernetesResource m =
                new io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder()
                        .withApiVersion("slo.koordinator.sh/v1alpha1")
                        .withKind("NodeMetric")
                        .withNewMetadata()
                        .withName("koordlet-n")
                        .endMetadata()
                        .build();
        m.setAdditionalProperty(
                "status",
                java.util.Map.of(
                        "updateTime",
                        "2026-01-01T00:00:00Z",
                        "nodeMetric",
                        java.util.Map.of("nodeUsage", java.util.Map.of("resources", java.util.Map.of("cpu", "2")))));
        metrics.resource(m).create();
        java.time.Instant now = java.time.Instant.parse("2026-06-01T12:00:00Z");
        assertTrue(new KoordletStandIn(client, java.time.Clock.fixed(now, java.time.ZoneOffset.UTC)).report() >= 1);
        @SuppressWarnings("unchecked")
        var status = (java.util.Map<String, Object>)
                metrics.withName("koordlet-n").get().getAdditionalProperties().get("status");
        assertEquals(now.toString(), status.get("updateTime"));
        assertEquals(
                java.util.Map.of("nodeUsage", java.util.Map.of("resources", java.util.Map.of("cpu", "2"))),
                status.get("nodeMetric"),
                "the usage stays as seeded");
        metrics.withName("koordlet-n").delete();
    }

    @Test
    void setBasedLabelSelectorsAreAnsweredNotIgnored() {
        for (String[] p : new String[][] {{"sel-web", "web"}, {"sel-db", "db"}, {"sel-cache", "cache"}}) {
            client.pods()
                    .resource(new PodBuilder(pod(p[0]))
                            .editMetadata()
                            .addToLabels("sel", p[1])
                            .endMetadata()
                            .build())
                    .create();
        }
        client.pods()
                .resource(new PodBuilder(pod("sel-canary"))
                        .editMetadata()
                        .addToLabels("sel", "web")
                        .addToLabels("canary", "1")
                        .endMetadata()
                        .build())
                .create();
        var pods = client.pods().inNamespace("default");
        assertEquals(
                java.util.Set.of("sel-web", "sel-db", "sel-canary"),
                names(pods.withLabelIn("sel", "web", "db").list().getItems()));
        assertEquals(
                java.util.Set.of("sel-cache"),
                names(pods.withLabel("sel")
                        .withLabelNotIn("sel", "web", "db")
                        .list()
                        .getItems()));
        assertEquals(
                java.util.Set.of("sel-web", "sel-db", "sel-cache"),
                names(pods.withLabel("sel").withoutLabel("canary").list().getItems()));
        assertEquals(
                java.util.Set.of("sel-canary"),
                names(pods.withLabelSelector("sel in (web), canary").list().getItems()));
        // equality-only selectors still go to the store as before
        assertEquals(
                java.util.Set.of("sel-db"),
                names(pods.withLabel("sel", "db").list().getItems()));
    }

    private static java.util.Set<String> names(java.util.List<Pod> pods) {
        java.util.Set<String> out = new java.util.HashSet<>();
        pods.forEach(p -> out.add(p.getMetadata().getName()));
        return out;
    }

    @Test
    void agesAreWrittenAsKubectlWritesThem() {
        assertEquals("45s", Tables.humanDuration(java.time.Duration.ofSeconds(45)));
        assertEquals("3m20s", Tables.humanDuration(java.time.Duration.ofSeconds(200)));
        assertEquals("12m", Tables.humanDuration(java.time.Duration.ofMinutes(12)));
        assertEquals("5h30m", Tables.humanDuration(java.time.Duration.ofMinutes(330)));
        assertEquals("3d4h", Tables.humanDuration(java.time.Duration.ofHours(76)));
        assertEquals("400d", Tables.humanDuration(java.time.Duration.ofDays(400)));
    }

    @Test
    void discoveryParsesAsKubectlReadsIt() {
        assertEquals("1", client.getKubernetesVersion().getMajor());
        assertTrue(client.getApiGroups().getGroups().stream()
                .anyMatch(g -> g.getName().equals("coordination.k8s.io")));
        assertTrue(client.getApiResources("v1").getResources().stream()
                .anyMatch(r -> r.getName().equals("pods/binding")));
        assertTrue(client.getApiResources("slo.koordinator.sh/v1alpha1").getResources().stream()
                .anyMatch(r -> r.getKind().equals("NodeMetric")));
    }

    @Test
    void seedsFromYamlFilesAndRunsPodsOnceBound(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("a.yaml"), """
                apiVersion: v1
                kind: Pod
                metadata: {name: seeded, namespace: team}
                spec:
                  containers: [{name: c, image: pause}]
                ---
                apiVersion: v1
                kind: Namespace
                metadata: {name: team}
                ---
                apiVersion: slo.koordinator.sh/v1alpha1
                kind: NodeMetric
                metadata: {name: n1}
                status: {nodeMetric: {nodeUsage: {resources: {cpu: 500m}}}}
                """);
        assertEquals(3, server.seed(dir));
        assertEquals(
                "team",
                client.pods()
                        .inNamespace("team")
                        .withName("seeded")
                        .get()
                        .getMetadata()
                        .getNamespace());
        assertEquals(
                1,
                client.genericKubernetesResources("slo.koordinator.sh/v1alpha1", "NodeMetric")
                        .list()
                        .getItems()
                        .size());
        server.startKubelet();
        bind("team", "seeded", "n1");
        // a watch on the pod sees the kubelet's status update
        client.pods()
                .inNamespace("team")
                .withName("seeded")
                .waitUntilCondition(
                        p -> p != null
                                && p.getStatus() != null
                                && "Running".equals(p.getStatus().getPhase()),
                        10,
                        TimeUnit.SECONDS);
        assertEquals("Running", phase("team", "seeded"));
    }
}
