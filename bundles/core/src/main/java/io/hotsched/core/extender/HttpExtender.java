package io.hotsched.core.extender;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.NodeList;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.hotsched.api.framework.Extender;
import io.hotsched.api.framework.ExtenderException;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeInfoLister;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Victims;
import io.hotsched.core.config.ExtenderConfig;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import javax.net.ssl.SSLContext;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * One configured extender, called over HTTP as kube-scheduler's HTTPExtender calls it: POST
 * {@code urlPrefix/verb} with JSON, 200 or an error, {@code httpTimeout} per call, one client per
 * extender so connections are reused. After a call times out, calls fail at once for a cool-down
 * (the time-out, doubling while time-outs go on, at most a minute): a dead or slow extender then
 * costs the scheduling loop one time-out per cool-down, not one per pod.
 */
public final class HttpExtender implements Extender {

    private static final long MAX_COOL_DOWN_NANOS = 60_000_000_000L;
    private static final TypeReference<List<Wire.HostPriority>> PRIORITIES = new TypeReference<>() {};

    private final ExtenderConfig config;
    private final String base;
    private final Set<String> managed;
    private final HttpClient client;
    private final JsonMapper json;
    private final Object coolDownLock = new Object();
    private long coolDownUntilNanos;
    private long coolDownNanos;
    private String coolDownCause;

    HttpExtender(ExtenderConfig config, JsonMapper json) throws GeneralSecurityException, IOException {
        this.config = config;
        this.base = config.urlPrefix().replaceAll("/+$", "");
        this.managed = config.managedResources().stream()
                .map(ExtenderConfig.ManagedResource::name)
                .collect(Collectors.toUnmodifiableSet());
        this.json = json;
        HttpClient.Builder b =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(config.httpTimeout());
        SSLContext tls = ExtenderTls.context(config);
        if (tls != null) {
            b.sslContext(tls);
        }
        this.client = b.build();
    }

    /** The mapper for the wire types: answers read case-insensitively, unknown fields ignored, as Go's decoder. */
    static JsonMapper mapper() {
        return JsonMapper.builder()
                .enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_PROPERTIES)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .build();
    }

    public ExtenderConfig config() {
        return config;
    }

    @Override
    public String name() {
        return config.urlPrefix();
    }

    @Override
    public boolean isIgnorable() {
        return config.ignorable();
    }

    @Override
    public boolean supportsPreemption() {
        return !config.preemptVerb().isEmpty();
    }

    public boolean isFilter() {
        return !config.filterVerb().isEmpty();
    }

    public boolean isPrioritizer() {
        return !config.prioritizeVerb().isEmpty();
    }

    public boolean isBinder() {
        return !config.bindVerb().isEmpty();
    }

    @Override
    public boolean isInterested(PodInfo pod) {
        if (managed.isEmpty()) {
            return true;
        }
        var spec = pod.pod().getSpec();
        return spec != null && (manages(spec.getContainers()) || manages(spec.getInitContainers()));
    }

    private boolean manages(List<Container> containers) {
        if (containers == null) {
            return false;
        }
        for (Container c : containers) {
            ResourceRequirements r = c.getResources();
            if (r != null && (anyManaged(r.getRequests()) || anyManaged(r.getLimits()))) {
                return true;
            }
        }
        return false;
    }

    private boolean anyManaged(Map<String, ?> resources) {
        if (resources != null) {
            for (String name : resources.keySet()) {
                if (managed.contains(name)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** What a filter call left: the nodes that pass, and why the others failed. */
    public record FilterOutcome(
            List<NodeInfo> feasible, Map<String, String> failed, Map<String, String> failedAndUnresolvable) {}

    /** The filter verb over {@code nodes}; all pass when the extender has none. */
    public FilterOutcome filter(PodInfo pod, List<NodeInfo> nodes) {
        if (!isFilter()) {
            return new FilterOutcome(nodes, Map.of(), Map.of());
        }
        Map<String, NodeInfo> byName = new HashMap<>();
        for (NodeInfo n : nodes) {
            byName.put(n.name(), n);
        }
        Wire.ExtenderFilterResult r = send(config.filterVerb(), args(pod, nodes), Wire.ExtenderFilterResult.class);
        if (r.error() != null && !r.error().isEmpty()) {
            throw new ExtenderException(r.error());
        }
        List<NodeInfo> feasible = new ArrayList<>();
        if (config.nodeCacheCapable() && r.nodeNames() != null) {
            for (String name : r.nodeNames()) {
                NodeInfo n = byName.get(name);
                if (n == null) {
                    throw new ExtenderException("extender \"" + name() + "\" claims a filtered node \"" + name
                            + "\" which is not found in the input node list");
                }
                feasible.add(n);
            }
        } else if (r.nodes() != null && r.nodes().getItems() != null) {
            // upstream builds bare NodeInfos from the returned Nodes; the cached ones (with their pods) are used here
            for (var node : r.nodes().getItems()) {
                String name =
                        node.getMetadata() == null ? null : node.getMetadata().getName();
                NodeInfo n = byName.get(name);
                if (n == null) {
                    throw new ExtenderException("extender \"" + name() + "\" claims a filtered node \"" + name
                            + "\" which is not found in the input node list");
                }
                feasible.add(n);
            }
        }
        return new FilterOutcome(
                feasible,
                r.failedNodes() == null ? Map.of() : r.failedNodes(),
                r.failedAndUnresolvableNodes() == null ? Map.of() : r.failedAndUnresolvableNodes());
    }

    /** The prioritize verb: per node the extender's score (0..10), not yet weighted. */
    public CompletableFuture<Map<String, Long>> prioritize(PodInfo pod, List<NodeInfo> nodes) {
        byte[] body = encode(args(pod, nodes));
        return sendAsync(config.prioritizeVerb(), body).thenApply(bytes -> {
            Map<String, Long> out = new LinkedHashMap<>();
            for (Wire.HostPriority h : decode(config.prioritizeVerb(), bytes, PRIORITIES)) {
                out.put(h.host(), h.score());
            }
            return out;
        });
    }

    /** The bind verb; the extender writes the Binding to the API server itself. */
    public void bind(PodInfo pod, String node) {
        var meta = pod.pod().getMetadata();
        Wire.ExtenderBindingResult r = send(
                config.bindVerb(),
                new Wire.ExtenderBindingArgs(meta.getName(), meta.getNamespace(), meta.getUid(), node),
                Wire.ExtenderBindingResult.class);
        if (r.error() != null && !r.error().isEmpty()) {
            throw new ExtenderException(r.error());
        }
    }

    @Override
    public Map<String, Victims> processPreemption(
            PodInfo pod, Map<String, Victims> nodeNameToVictims, NodeInfoLister nodes) {
        if (!supportsPreemption()) {
            throw new ExtenderException(
                    "preempt verb is not defined for extender " + name() + " but run into ProcessPreemption");
        }
        Wire.ExtenderPreemptionArgs args;
        if (config.nodeCacheCapable()) {
            Map<String, Wire.MetaVictims> meta = new LinkedHashMap<>();
            nodeNameToVictims.forEach((node, v) -> meta.put(
                    node,
                    new Wire.MetaVictims(
                            v.pods().stream()
                                    .map(p -> new Wire.MetaPod(p.uid()))
                                    .toList(),
                            v.numPDBViolations())));
            args = new Wire.ExtenderPreemptionArgs(pod.pod(), null, meta);
        } else {
            Map<String, Wire.Victims> full = new LinkedHashMap<>();
            nodeNameToVictims.forEach((node, v) -> full.put(
                    node, new Wire.Victims(v.pods().stream().map(PodInfo::pod).toList(), v.numPDBViolations())));
            args = new Wire.ExtenderPreemptionArgs(pod.pod(), full, null);
        }
        Wire.ExtenderPreemptionResult r = send(config.preemptVerb(), args, Wire.ExtenderPreemptionResult.class);
        Map<String, Victims> out = new LinkedHashMap<>();
        if (r.nodeNameToMetaVictims() == null) {
            return out;
        }
        for (Map.Entry<String, Wire.MetaVictims> e : r.nodeNameToMetaVictims().entrySet()) {
            NodeInfo node = nodes.get(e.getKey());
            if (node == null) {
                throw new ExtenderException(
                        "extender " + name() + " answered node \"" + e.getKey() + "\", which is not in the snapshot");
            }
            List<PodInfo> victims = new ArrayList<>();
            if (e.getValue() != null && e.getValue().pods() != null) {
                for (Wire.MetaPod m : e.getValue().pods()) {
                    PodInfo p = node.pods().stream()
                            .filter(x -> x.uid().equals(m.uid()))
                            .findFirst()
                            .orElseThrow(() -> new ExtenderException(
                                    "extender: " + name() + " claims to preempt pod (UID: " + m.uid() + ") on node: "
                                            + e.getKey() + ", but the pod is not found on that node"));
                    victims.add(p);
                }
            }
            out.put(
                    e.getKey(),
                    new Victims(victims, e.getValue() == null ? 0 : e.getValue().numPDBViolations()));
        }
        return out;
    }

    private Wire.ExtenderArgs args(PodInfo pod, List<NodeInfo> nodes) {
        if (config.nodeCacheCapable()) {
            return new Wire.ExtenderArgs(
                    pod.pod(), null, nodes.stream().map(NodeInfo::name).toList());
        }
        NodeList list = new NodeList();
        list.setItems(nodes.stream().map(NodeInfo::node).toList());
        return new Wire.ExtenderArgs(pod.pod(), list, null);
    }

    private <T> T send(String verb, Object args, Class<T> type) {
        byte[] body = encode(args);
        try {
            return decode(verb, sendAsync(verb, body).join(), type);
        } catch (CompletionException e) {
            throw e.getCause() instanceof ExtenderException ee
                    ? ee
                    : new ExtenderException(e.getCause().toString(), e.getCause());
        }
    }

    private CompletableFuture<byte[]> sendAsync(String verb, byte[] body) {
        String url = base + "/" + verb;
        String cooling = coolingDown();
        if (cooling != null) {
            return CompletableFuture.failedFuture(new ExtenderException("Post \"" + url + "\": " + cooling));
        }
        HttpRequest req = HttpRequest.newBuilder(URI.create(url))
                .timeout(config.httpTimeout())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
        return client.sendAsync(req, HttpResponse.BodyHandlers.ofByteArray()).handle((resp, err) -> {
            if (err != null) {
                Throwable cause = err instanceof CompletionException && err.getCause() != null ? err.getCause() : err;
                if (cause instanceof HttpTimeoutException) {
                    timedOut();
                }
                throw new ExtenderException("Post \"" + url + "\": " + describe(cause), cause);
            }
            answered();
            if (resp.statusCode() != 200) {
                throw new ExtenderException(
                        "failed " + verb + " with extender at URL " + url + ", code " + resp.statusCode());
            }
            return resp.body();
        });
    }

    private String describe(Throwable cause) {
        if (cause instanceof HttpTimeoutException) {
            return "no answer within " + config.httpTimeout().toMillis() + "ms (httpTimeout)";
        }
        if (cause instanceof ConnectException) {
            return "connection refused";
        }
        return cause.getMessage() == null ? cause.toString() : cause.getMessage();
    }

    private String coolingDown() {
        synchronized (coolDownLock) {
            long left = coolDownUntilNanos - System.nanoTime();
            return coolDownNanos > 0 && left > 0
                    ? "not called for " + (left / 1_000_000) + "ms more: " + coolDownCause
                    : null;
        }
    }

    private void timedOut() {
        synchronized (coolDownLock) {
            coolDownNanos = coolDownNanos == 0
                    ? config.httpTimeout().toNanos()
                    : Math.min(MAX_COOL_DOWN_NANOS, coolDownNanos * 2);
            coolDownUntilNanos = System.nanoTime() + coolDownNanos;
            coolDownCause =
                    "its last call got no answer within " + config.httpTimeout().toMillis() + "ms";
        }
    }

    private void answered() {
        synchronized (coolDownLock) {
            coolDownNanos = 0;
        }
    }

    private byte[] encode(Object args) {
        try {
            return json.writeValueAsBytes(args);
        } catch (JacksonException e) {
            throw new ExtenderException(
                    "encoding the request to extender " + name() + ": " + e.getOriginalMessage(), e);
        }
    }

    private <T> T decode(String verb, byte[] body, Class<T> type) {
        return decode(verb, type.getSimpleName(), () -> json.readValue(body, type));
    }

    private <T> T decode(String verb, byte[] body, TypeReference<T> type) {
        return decode(verb, "HostPriorityList", () -> json.readValue(body, type));
    }

    private <T> T decode(String verb, String typeName, Supplier<T> read) {
        try {
            return read.get();
        } catch (JacksonException e) {
            throw new ExtenderException(
                    "extender " + name() + " answered " + verb + " with JSON that is not a " + typeName + ": "
                            + e.getOriginalMessage(),
                    e);
        }
    }

    @Override
    public String toString() {
        return name();
    }
}
