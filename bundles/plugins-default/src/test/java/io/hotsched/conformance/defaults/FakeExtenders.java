package io.hotsched.conformance.defaults;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.hotsched.conformance.runner.ConformanceRunner;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * upstream's FakeExtender for preemption, served over HTTP on loopback so that hotsched's own
 * extender client calls it: each extender of a case's {@code extenders} keeps the candidate nodes
 * its {@code predicate} accepts, with the victims it was offered (upstream's extender without a node
 * cache runs only its predicates on the node), and drops the others.
 * Predicates: {@code True} (every node), {@code False} (none), {@code Node1} (node1 only),
 * {@code Error} (the call fails). {@code unInterested}: the extender manages a resource the pod does
 * not request, so the pod is not sent to it.
 */
final class FakeExtenders implements AutoCloseable {

    private final HttpServer server;
    private final JsonNode specs;

    FakeExtenders(JsonNode specs) throws IOException {
        this.specs = specs;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        for (JsonNode e : specs) {
            String predicate = e.path("predicate").asText();
            server.createContext("/" + e.path("name").asText() + "/preempt", ex -> answer(ex, predicate));
        }
        server.start();
    }

    /** The configuration's {@code extenders} list for these extenders, as YAML; empty without any. */
    String yaml() {
        StringBuilder y = new StringBuilder();
        if (specs.isEmpty()) {
            return "";
        }
        y.append("extenders:\n");
        for (JsonNode e : specs) {
            y.append("- urlPrefix: http://127.0.0.1:")
                    .append(server.getAddress().getPort())
                    .append('/')
                    .append(e.path("name").asText())
                    .append("\n  preemptVerb: preempt\n  ignorable: ")
                    .append(e.path("ignorable").asBoolean(false))
                    .append('\n');
            if (e.path("unInterested").asBoolean(false)) {
                y.append("  managedResources:\n  - name: example.com/not-requested\n");
            }
        }
        return y.toString();
    }

    private static void answer(HttpExchange ex, String predicate) throws IOException {
        try (ex) {
            JsonNode args = ConformanceRunner.JSON.readTree(ex.getRequestBody());
            if (predicate.equals("Error")) {
                send(ex, 500, "some error");
                return;
            }
            ObjectNode result = ConformanceRunner.JSON.createObjectNode();
            ObjectNode kept = result.putObject("NodeNameToMetaVictims");
            args.path("NodeNameToVictims").properties().forEach(e -> {
                String node = e.getKey();
                if (predicate.equals("True") || predicate.equals("Node1") && node.equals("node1")) {
                    ObjectNode v = kept.putObject(node);
                    var pods = v.putArray("Pods");
                    e.getValue()
                            .path("Pods")
                            .forEach(p -> pods.addObject()
                                    .put("UID", p.path("metadata").path("uid").asText()));
                    v.put(
                            "NumPDBViolations",
                            e.getValue().path("NumPDBViolations").asLong());
                }
            });
            send(ex, 200, result.toString());
        }
    }

    private static void send(HttpExchange ex, int code, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(code, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
