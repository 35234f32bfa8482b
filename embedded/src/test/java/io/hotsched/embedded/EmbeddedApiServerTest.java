package io.hotsched.embedded;

import static io.hotsched.embedded.TestObjects.binding;
import static io.hotsched.embedded.TestObjects.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The embedded server over HTTP: binding semantics, watches, discovery, seeding. */
class EmbeddedApiServerTest {

    @RegisterExtension
    static final ApiServer API = new ApiServer().withNodes("n1");

    private static String phase(String ns, String name) {
        Pod p = API.client().pods().inNamespace(ns).withName(name).get();
        return p.getStatus() == null ? null : p.getStatus().getPhase();
    }

    private static String nodeOf(String pod) {
        return API.client()
                .pods()
                .inNamespace("default")
                .withName(pod)
                .get()
                .getSpec()
                .getNodeName();
    }

    private static void bind(String ns, String pod, String node) {
        API.client().bindings().inNamespace(ns).resource(binding(pod, node)).create();
    }

    private static HttpResponse<String> post(String path, String json) throws Exception {
        return Http.send(
                API.server().url(), "POST", path, "application/json", json.getBytes(StandardCharsets.UTF_8), null);
    }

    private static HttpResponse<String> get(String path, String accept) throws Exception {
        return Http.send(API.server().url(), "GET", path, null, null, accept);
    }

    @Test
    void theBindingSubresourceOfAPod() throws Exception {
        API.client().pods().resource(pod("default", "sub")).create();
        HttpResponse<String> r = post(
                "/api/v1/namespaces/default/pods/sub/binding",
                "{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":\"sub\"},"
                        + "\"target\":{\"kind\":\"Node\",\"name\":\"n1\"}}");
        assertEquals(201, r.statusCode(), r.body());
        assertEquals("n1", nodeOf("sub"));
    }

    @Test
    void bindingSetsNodeNameOnceAndWatchersSeeIt() throws Exception {
        API.client().pods().resource(pod("default", "b1")).create();
        CountDownLatch seen = new CountDownLatch(1);
        Watch w = API.client().pods().inNamespace("default").withName("b1").watch(new Watcher<>() {
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
        assertEquals("n1", nodeOf("b1"));

        KubernetesClientException again = org.junit.jupiter.api.Assertions.assertThrows(
                KubernetesClientException.class, () -> bind("default", "b1", "n2"));
        assertEquals(409, again.getCode());
        assertTrue(again.getMessage().contains("already assigned to node \"n1\""), again.getMessage());
    }

    @Test
    void bindingAMissingPodIs404AndTheBindingsEndpointWorks() throws Exception {
        String binding =
                "{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":\"%s\"},\"target\":{\"kind\":\"Node\",\"name\":\"n1\"}}";
        HttpResponse<String> missing = post("/api/v1/namespaces/default/bindings", binding.formatted("ghost"));
        assertEquals(404, missing.statusCode());
        API.client().pods().resource(pod("default", "b2")).create();
        HttpResponse<String> ok = post("/api/v1/namespaces/default/bindings", binding.formatted("b2"));
        assertEquals(201, ok.statusCode());
        assertEquals("n1", nodeOf("b2"));
    }

    @Test
    void podFieldSelectorsOnNodeNameAndPhase() {
        API.client().pods().resource(pod("default", "fs-unbound")).create();
        API.client().pods().resource(pod("default", "fs-bound")).create();
        bind("default", "fs-bound", "n1");
        var unbound = API.client()
                .pods()
                .inNamespace("default")
                .withField("spec.nodeName", "")
                .list()
                .getItems();
        assertTrue(unbound.stream().anyMatch(p -> p.getMetadata().getName().equals("fs-unbound")));
        assertTrue(unbound.stream().noneMatch(p -> p.getSpec().getNodeName() != null));
        var onN1 = API.client()
                .pods()
                .inNamespace("default")
                .withField("spec.nodeName", "n1")
                .list()
                .getItems();
        assertTrue(onN1.stream().anyMatch(p -> p.getMetadata().getName().equals("fs-bound")));
        assertTrue(onN1.stream().allMatch(p -> "n1".equals(p.getSpec().getNodeName())));
        var notSucceeded = API.client()
                .pods()
                .inNamespace("default")
                .withoutField("status.phase", "Succeeded")
                .list()
                .getItems();
        assertTrue(notSucceeded.size() >= 2);
        var byName = API.client()
                .pods()
                .inNamespace("default")
                .withField("metadata.name", "fs-bound")
                .withField("spec.nodeName", "n1")
                .list()
                .getItems();
        assertEquals(1, byName.size(), "the stock server still answers metadata.name");
    }

    @Test
    void kubectlsTableRequestGetsPodAndNodeColumns() throws Exception {
        API.client().pods().resource(pod("default", "tbl")).create();
        bind("default", "tbl", "n1");
        String accept =
                "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";
        HttpResponse<String> pods = get("/api/v1/namespaces/default/pods/tbl", accept);
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

        HttpResponse<String> nodes = get("/api/v1/nodes", accept);
        assertTrue(nodes.body().contains("\"cells\":[\"n1\",\"Ready\""), nodes.body());
        // a client that does not ask for a Table gets the objects
        assertEquals(
                "tbl",
                API.client()
                        .pods()
                        .inNamespace("default")
                        .withName("tbl")
                        .get()
                        .getMetadata()
                        .getName());
    }

    @Test
    void theKoordletStandInReportsNodeMetricsAgain() {
        var metrics = API.client().genericKubernetesResources("slo.koordinator.sh/v1alpha1", "NodeMetric");
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
        assertTrue(
                new KoordletStandIn(API.client(), java.time.Clock.fixed(now, java.time.ZoneOffset.UTC)).report() >= 1);
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
            API.client()
                    .pods()
                    .resource(new PodBuilder(pod("default", p[0]))
                            .editMetadata()
                            .addToLabels("sel", p[1])
                            .endMetadata()
                            .build())
                    .create();
        }
        API.client()
                .pods()
                .resource(new PodBuilder(pod("default", "sel-canary"))
                        .editMetadata()
                        .addToLabels("sel", "web")
                        .addToLabels("canary", "1")
                        .endMetadata()
                        .build())
                .create();
        var pods = API.client().pods().inNamespace("default");
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

    @ParameterizedTest
    @CsvSource({"PT45S, 45s", "PT200S, 3m20s", "PT12M, 12m", "PT330M, 5h30m", "PT76H, 3d4h", "P400D, 400d"})
    void agesAreWrittenAsKubectlWritesThem(java.time.Duration age, String shown) {
        assertEquals(shown, Tables.humanDuration(age));
    }

    @Test
    void discoveryParsesAsKubectlReadsIt() {
        assertEquals("1", API.client().getKubernetesVersion().getMajor());
        assertTrue(API.client().getApiGroups().getGroups().stream()
                .anyMatch(g -> g.getName().equals("coordination.k8s.io")));
        assertTrue(API.client().getApiResources("v1").getResources().stream()
                .anyMatch(r -> r.getName().equals("pods/binding")));
        assertTrue(API.client().getApiResources("slo.koordinator.sh/v1alpha1").getResources().stream()
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
                ---
                apiVersion: apps/v1
                kind: StatefulSet
                metadata: {name: set, namespace: team}
                spec:
                  serviceName: set
                  replicas: 1
                  selector: {matchLabels: {app: set}}
                  template:
                    metadata: {labels: {app: set}}
                    spec:
                      containers: [{name: c, image: pause}]
                """);
        assertEquals(4, API.server().seed(dir));
        assertEquals(
                "team",
                API.client()
                        .pods()
                        .inNamespace("team")
                        .withName("seeded")
                        .get()
                        .getMetadata()
                        .getNamespace());
        assertEquals(
                1,
                API.client()
                        .genericKubernetesResources("slo.koordinator.sh/v1alpha1", "NodeMetric")
                        .list()
                        .getItems()
                        .size());
        // every stand-in starts over what was seeded (the set's controller has the pods followed already)
        API.server().startKubelet();
        API.client()
                .pods()
                .inNamespace("team")
                .withName("set-0")
                .waitUntilCondition(p -> p != null, 10, TimeUnit.SECONDS);
        bind("team", "seeded", "n1");
        // a watch on the pod sees the kubelet's status update
        API.client()
                .pods()
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
