package io.hotsched.embedded;

import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * An audit log as kube-apiserver's {@code --audit-log-path} writes it (audit.k8s.io/v1 Events, one
 * JSON object a line, at the Request level), for the writes that decide who schedules and with
 * what: bindings, Leases, and SchedulerPlugin objects with their status. The user is the ServiceAccount the bearer token names ({@code system:anonymous}
 * without one); {@code auditID} counts the answers in the order the server gave them, so a binding
 * can be set against the Lease's holder at that moment.
 */
final class AuditLog implements AutoCloseable {

    private static final ObjectMapper JSON = JsonMapper.builder().build();
    static final Pattern POD_BINDING = Pattern.compile("/api/v1/namespaces/([^/]+)/pods/([^/?]+)/binding/?(\\?.*)?");
    static final Pattern BINDINGS = Pattern.compile("/api/v1/namespaces/([^/]+)/bindings/?(\\?.*)?");
    private static final Pattern LEASE =
            Pattern.compile("/apis/coordination.k8s.io/v1/namespaces/([^/]+)/leases(?:/([^/?]+))?/?(\\?.*)?");
    /** hotsched's SchedulerPlugin objects and their status: who ran which bundle, set against who scheduled. */
    private static final Pattern SCHEDULER_PLUGIN =
            Pattern.compile("/apis/hotsched.io/v1alpha1/schedulerplugins(?:/([^/?]+))?(/status)?/?(\\?.*)?");

    private final BufferedWriter out;
    private final UnaryOperator<String> userOfToken;
    private final AtomicLong sequence = new AtomicLong();

    /** @param userOfToken the user a bearer token names, or null */
    AuditLog(Path file, UnaryOperator<String> userOfToken) throws IOException {
        this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        this.userOfToken = userOfToken;
    }

    /** Whether {@code request} is one this log records: a binding or a write of a Lease. */
    static boolean audited(RecordedRequest request) {
        HttpMethod m = request.method();
        String path = request.getPath();
        return (m == HttpMethod.POST || m == HttpMethod.PUT || m == HttpMethod.PATCH)
                && (POD_BINDING.matcher(path).matches()
                        || BINDINGS.matcher(path).matches()
                        || LEASE.matcher(path).matches()
                        || SCHEDULER_PLUGIN.matcher(path).matches());
    }

    /** Writes an event for {@code request} when it is a binding or a Lease write, with its answer. */
    void answered(RecordedRequest request, String body, MockResponse answer, Instant received) {
        HttpMethod m = request.method();
        if (m != HttpMethod.POST && m != HttpMethod.PUT && m != HttpMethod.PATCH) {
            return;
        }
        String path = request.getPath();
        Matcher pod = POD_BINDING.matcher(path);
        Matcher bindings = BINDINGS.matcher(path);
        Matcher lease = LEASE.matcher(path);
        Matcher plugin = SCHEDULER_PLUGIN.matcher(path);
        JsonNode object = parse(body);
        String resource;
        String subresource = "";
        String namespace;
        String name;
        if (pod.matches()) {
            resource = "pods";
            subresource = "binding";
            namespace = pod.group(1);
            name = pod.group(2);
        } else if (m == HttpMethod.POST && bindings.matches()) {
            resource = "pods";
            subresource = "binding";
            namespace = bindings.group(1);
            name = object == null ? "" : object.path("metadata").path("name").asText("");
        } else if (lease.matches()) {
            resource = "leases";
            namespace = lease.group(1);
            name = lease.group(2) != null
                    ? lease.group(2)
                    : object == null ? "" : object.path("metadata").path("name").asText("");
        } else if (plugin.matches()) {
            resource = "schedulerplugins";
            subresource = plugin.group(2) == null ? "" : "status";
            namespace = "";
            name = plugin.group(1) != null
                    ? plugin.group(1)
                    : object == null ? "" : object.path("metadata").path("name").asText("");
        } else {
            return;
        }
        ObjectNode e = JSON.createObjectNode();
        e.put("kind", "Event");
        e.put("apiVersion", "audit.k8s.io/v1");
        e.put("level", "Request");
        e.put("auditID", Long.toString(sequence.incrementAndGet()));
        e.put("stage", "ResponseComplete");
        e.put("requestURI", path);
        e.put("verb", m == HttpMethod.POST ? "create" : m == HttpMethod.PUT ? "update" : "patch");
        e.putObject("user").put("username", user(request.getHeader("Authorization")));
        String agent = request.getHeader("User-Agent");
        if (agent != null) {
            e.put("userAgent", agent);
        }
        ObjectNode ref = e.putObject("objectRef");
        ref.put("resource", resource);
        if (!namespace.isEmpty()) {
            ref.put("namespace", namespace);
        }
        ref.put("name", name);
        if (!subresource.isEmpty()) {
            ref.put("subresource", subresource);
        }
        e.putObject("responseStatus").put("code", answer.code());
        if (object != null) {
            e.set("requestObject", object);
        }
        e.put("requestReceivedTimestamp", received.toString());
        e.put("stageTimestamp", Instant.now().toString());
        synchronized (this) {
            try {
                out.write(JSON.writeValueAsString(e));
                out.newLine();
                out.flush();
            } catch (IOException x) {
                throw new UncheckedIOException(x);
            }
        }
    }

    private String user(String authorization) {
        if (authorization == null || !authorization.startsWith("Bearer ")) {
            return "system:anonymous";
        }
        String user = userOfToken.apply(authorization.substring(7).trim());
        return user != null ? user : "unknown-token";
    }

    private static JsonNode parse(String body) {
        try {
            return body == null || body.isEmpty() ? null : JSON.readTree(body);
        } catch (RuntimeException e) {
            return null;
        }
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }
}
