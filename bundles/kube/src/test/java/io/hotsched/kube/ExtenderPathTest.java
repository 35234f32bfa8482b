package io.hotsched.kube;

import static io.hotsched.kube.ApiServerFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.plugins.defaults.defaultpreemption.DefaultPreemption;
import io.hotsched.plugins.defaults.defaultpreemption.DefaultPreemptionFactory;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * An extender written for kube-scheduler (the same JSON in and out, over HTTP) decides with
 * hotsched against the embedded API server: its filter places the pod, its binder writes the
 * Binding, its preempt verb picks other victims than DefaultPreemption would.
 */
class ExtenderPathTest {

    private final JsonMapper json = JsonMapper.builder().build();
    private ApiServerFixture api;
    private KubernetesClient client;
    private HttpServer extender;
    private final List<String> calls = new CopyOnWriteArrayList<>();
    private final Map<String, Function<JsonNode, String>> verbs = new ConcurrentHashMap<>();

    @BeforeEach
    void start() throws Exception {
        api = new ApiServerFixture();
        client = api.client;
        extender = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        extender.createContext("/ext/", this::handle);
        extender.start();
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String verb = ex.getRequestURI().getPath().substring("/ext/".length());
            JsonNode body = json.readTree(ex.getRequestBody().readAllBytes());
            calls.add(verb + " " + body);
            byte[] out = verbs.get(verb).apply(body).getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, out.length);
            ex.getResponseBody().write(out);
        }
    }

    private void startScheduler(String extenderFields) throws Exception {
        Map<String, PluginFactory> plugins =
                ConnectedScheduler.defaultPluginsAnd(DefaultPreemption.NAME, new DefaultPreemptionFactory());
        String url = "http://127.0.0.1:" + extender.getAddress().getPort() + "/ext";
        String extenders = "extenders:\n- urlPrefix: \"" + url + "\"\n" + extenderFields.indent(2);
        api.connect(plugins, ConnectedScheduler.config(plugins) + extenders);
    }

    @AfterEach
    void stop() {
        extender.stop(0);
        api.close();
    }

    private String nodeOf(String pod) {
        String node = api.nodeOf(pod);
        return node == null ? "" : node;
    }

    @Test
    void theExtendersFilterPlacesThePod() throws Exception {
        for (String n : List.of("n1", "n2", "n3")) {
            api.create(Nodes.node(n).cpu("4").build());
        }
        // keeps only nodes labelled by its own inventory: n2
        verbs.put("filter", body -> {
            StringBuilder failed = new StringBuilder();
            for (JsonNode n : body.get("Nodes").get("items")) {
                String name = n.get("metadata").get("name").asString();
                if (!name.equals("n2")) {
                    failed.append(failed.isEmpty() ? "" : ",")
                            .append("\"")
                            .append(name)
                            .append("\":\"not in the licence pool\"");
                }
            }
            return "{\"Nodes\":{\"items\":[{\"metadata\":{\"name\":\"n2\"}}]},\"FailedNodes\":{" + failed
                    + "},\"Error\":\"\"}";
        });
        startScheduler("filterVerb: filter");
        api.create(Pods.pod("p").cpu("100m").build());
        await("p bound", () -> !nodeOf("p").isEmpty());
        assertEquals("n2", nodeOf("p"));
        JsonNode sent = json.readTree(calls.get(0).substring("filter ".length()));
        assertEquals("p", sent.get("Pod").get("metadata").get("name").asString());
        assertEquals(3, sent.get("Nodes").get("items").size());
    }

    @Test
    void theBinderExtenderWritesTheBinding() throws Exception {
        api.create(Nodes.node("n1").cpu("4").build());
        verbs.put("bind", body -> {
            client.bindings()
                    .inNamespace(body.get("PodNamespace").asString())
                    .resource(new BindingBuilder()
                            .withNewMetadata()
                            .withName(body.get("PodName").asString())
                            .withUid(body.get("PodUID").asString())
                            .endMetadata()
                            .withNewTarget()
                            .withKind("Node")
                            .withName(body.get("Node").asString())
                            .endTarget()
                            .build())
                    .create();
            return "{\"Error\":\"\"}";
        });
        startScheduler("bindVerb: bind");
        api.create(Pods.pod("p").cpu("100m").build());
        await("p bound by the extender", () -> nodeOf("p").equals("n1"));
        assertEquals(1, calls.size());
        JsonNode sent = json.readTree(calls.get(0).substring("bind ".length()));
        assertEquals("p", sent.get("PodName").asString());
        assertEquals(api.get("p").getMetadata().getUid(), sent.get("PodUID").asString());
        assertEquals("n1", sent.get("Node").asString());
    }

    @Test
    void thePreemptVerbChoosesTheVictims() throws Exception {
        api.create(Nodes.node("n1").cpu("2").build());
        startScheduler("preemptVerb: preempt\nnodeCacheCapable: true");
        api.create(Pods.pod("cheap").priority(0).cpu("1").build());
        api.create(Pods.pod("dear").priority(500).cpu("1").build());
        await("both bound", () -> nodeOf("cheap").equals("n1") && nodeOf("dear").equals("n1"));
        String dearUid = api.get("dear").getMetadata().getUid();
        // DefaultPreemption would evict "cheap" (the lowest priority); this extender insists on "dear"
        verbs.put(
                "preempt",
                body -> "{\"NodeNameToMetaVictims\":{\"n1\":{\"Pods\":[{\"UID\":\"" + dearUid
                        + "\"}],\"NumPDBViolations\":0}}}");
        api.create(Pods.pod("urgent").priority(1000).cpu("1").build());
        await("urgent bound", () -> nodeOf("urgent").equals("n1"));
        assertTrue(api.get("dear") == null, "the extender's victim was evicted");
        assertEquals("n1", nodeOf("cheap"), "DefaultPreemption's own choice was kept");
        JsonNode sent = json.readTree(calls.get(0).substring("preempt ".length()));
        assertEquals(
                api.get("cheap").getMetadata().getUid(),
                sent.get("NodeNameToMetaVictims")
                        .get("n1")
                        .get("Pods")
                        .get(0)
                        .get("UID")
                        .asString(),
                "it was offered DefaultPreemption's candidate");
        assertTrue(sent.get("NodeNameToVictims").isNull());
    }
}
