package io.hotsched.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.embedded.EmbeddedApiServer;
import io.hotsched.plugins.defaults.defaultbinder.DefaultBinder;
import io.hotsched.plugins.defaults.defaultpreemption.DefaultPreemption;
import io.hotsched.plugins.defaults.noderesourcesfit.NodeResourcesFit;
import io.hotsched.plugins.defaults.queuesort.PrioritySort;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
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

    private static final String PROFILE = """
            apiVersion: kubescheduler.config.k8s.io/v1
            kind: KubeSchedulerConfiguration
            profiles:
            - schedulerName: default-scheduler
              plugins:
                multiPoint:
                  enabled: [{name: PrioritySort}, {name: NodeResourcesFit}, {name: DefaultPreemption}, {name: DefaultBinder}]
                  disabled: [{name: "*"}]
            extenders:
            - urlPrefix: "%s"
            """;

    private final JsonMapper json = JsonMapper.builder().build();
    private EmbeddedApiServer api;
    private KubernetesClient client;
    private ConnectedScheduler scheduler;
    private HttpServer extender;
    private final List<String> calls = new CopyOnWriteArrayList<>();
    private final Map<String, Function<JsonNode, String>> verbs = new java.util.concurrent.ConcurrentHashMap<>();

    @BeforeEach
    void start() throws Exception {
        api = new EmbeddedApiServer().start(0);
        client = api.client();
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
        Map<String, PluginFactory> plugins = new java.util.LinkedHashMap<>();
        plugins.put(PrioritySort.NAME, new PrioritySort());
        plugins.put(NodeResourcesFit.NAME, new NodeResourcesFit());
        plugins.put(DefaultPreemption.NAME, new DefaultPreemption());
        plugins.put(DefaultBinder.NAME, new DefaultBinder());
        String url = "http://127.0.0.1:" + extender.getAddress().getPort() + "/ext";
        scheduler = new ConnectedScheduler(api.url(), plugins, PROFILE.formatted(url) + extenderFields.indent(2));
    }

    @AfterEach
    void stop() {
        if (scheduler != null) {
            scheduler.close();
        }
        extender.stop(0);
        api.close();
    }

    private static void await(String what, BooleanSupplier c) throws InterruptedException {
        Await.until(what, 20, c);
    }

    private Pod get(String name) {
        return client.pods().inNamespace("default").withName(name).get();
    }

    private String nodeOf(String pod) {
        Pod p = get(pod);
        return p == null || p.getSpec().getNodeName() == null ? "" : p.getSpec().getNodeName();
    }

    @Test
    void theExtendersFilterPlacesThePod() throws Exception {
        for (String n : List.of("n1", "n2", "n3")) {
            client.nodes().resource(Nodes.node(n).cpu("4").build()).create();
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
        client.pods().resource(Pods.pod("p").cpu("100m").build()).create();
        await("p bound", () -> !nodeOf("p").isEmpty());
        assertEquals("n2", nodeOf("p"));
        JsonNode sent = json.readTree(calls.get(0).substring("filter ".length()));
        assertEquals("p", sent.get("Pod").get("metadata").get("name").asString());
        assertEquals(3, sent.get("Nodes").get("items").size());
    }

    @Test
    void theBinderExtenderWritesTheBinding() throws Exception {
        client.nodes().resource(Nodes.node("n1").cpu("4").build()).create();
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
        client.pods().resource(Pods.pod("p").cpu("100m").build()).create();
        await("p bound by the extender", () -> nodeOf("p").equals("n1"));
        assertEquals(1, calls.size());
        JsonNode sent = json.readTree(calls.get(0).substring("bind ".length()));
        assertEquals("p", sent.get("PodName").asString());
        assertEquals(get("p").getMetadata().getUid(), sent.get("PodUID").asString());
        assertEquals("n1", sent.get("Node").asString());
    }

    @Test
    void thePreemptVerbChoosesTheVictims() throws Exception {
        client.nodes().resource(Nodes.node("n1").cpu("2").build()).create();
        startScheduler("preemptVerb: preempt\nnodeCacheCapable: true");
        client.pods().resource(Pods.pod("cheap").priority(0).cpu("1").build()).create();
        client.pods().resource(Pods.pod("dear").priority(500).cpu("1").build()).create();
        await("both bound", () -> nodeOf("cheap").equals("n1") && nodeOf("dear").equals("n1"));
        String dearUid = get("dear").getMetadata().getUid();
        // DefaultPreemption would evict "cheap" (the lowest priority); this extender insists on "dear"
        verbs.put(
                "preempt",
                body -> "{\"NodeNameToMetaVictims\":{\"n1\":{\"Pods\":[{\"UID\":\"" + dearUid
                        + "\"}],\"NumPDBViolations\":0}}}");
        client.pods()
                .resource(Pods.pod("urgent").priority(1000).cpu("1").build())
                .create();
        await("urgent bound", () -> nodeOf("urgent").equals("n1"));
        assertTrue(get("dear") == null, "the extender's victim was evicted");
        assertEquals("n1", nodeOf("cheap"), "DefaultPreemption's own choice was kept");
        JsonNode sent = json.readTree(calls.get(0).substring("preempt ".length()));
        assertEquals(
                get("cheap").getMetadata().getUid(),
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
