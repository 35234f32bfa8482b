package io.hotsched.embedded;

import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.zjsonpatch.JsonPatch;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code scale} subresource of Deployments, ReplicaSets and StatefulSets: an autoscaling/v1
 * {@code Scale} read from the object ({@code spec.replicas}, {@code status.replicas}, the selector
 * as a string), and written back to its {@code spec.replicas} by PUT or PATCH (merge, strategic
 * merge, which for a Scale is the same, or JSON patch), as {@code kubectl scale} and autoscalers use it.
 */
final class ScaleSubresource {

    private static final Pattern PATH = Pattern.compile(
            "/apis/apps/v1/namespaces/([^/?]+)/(deployments|replicasets|statefulsets)/([^/?]+)/scale/?(\\?.*)?");
    private static final Map<String, String> KIND = Map.of(
            "deployments", "deployments.apps", "replicasets", "replicasets.apps", "statefulsets", "statefulsets.apps");
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private final Function<String, MockResponse> get;
    private final BiFunction<String, String, MockResponse> mergePatch;

    /**
     * @param get the store's GET of an object path
     * @param mergePatch the store's merge patch of an object path with a patch body
     */
    ScaleSubresource(Function<String, MockResponse> get, BiFunction<String, String, MockResponse> mergePatch) {
        this.get = get;
        this.mergePatch = mergePatch;
    }

    /** The answer to {@code request} when it is for a scale subresource, else null. */
    MockResponse dispatch(RecordedRequest request) {
        Matcher m = PATH.matcher(request.getPath());
        if (!m.matches()) {
            return null;
        }
        String objectPath = "/apis/apps/v1/namespaces/" + m.group(1) + "/" + m.group(2) + "/" + m.group(3);
        String resource = KIND.get(m.group(2));
        MockResponse current = get.apply(objectPath);
        if (current.code() == 404) {
            return StatusJson.failure(404, "NotFound", resource + " \"" + m.group(3) + "\" not found");
        }
        ObjectNode object = (ObjectNode) JSON.readTree(body(current));
        ObjectNode scale = scaleOf(object);
        HttpMethod method = request.method();
        if (method == HttpMethod.GET) {
            return StatusJson.json(JSON.writeValueAsString(scale));
        }
        if (method != HttpMethod.PUT && method != HttpMethod.PATCH) {
            return StatusJson.failure(
                    405, "MethodNotAllowed", "the server does not allow this method on the requested resource");
        }
        JsonNode wanted;
        try {
            wanted = method == HttpMethod.PUT ? JSON.readTree(request.getUtf8Body()) : patched(scale, request);
        } catch (IllegalArgumentException | tools.jackson.core.JacksonException e) {
            return StatusJson.failure(
                    400, "BadRequest", "the body of the request is not a valid patch or Scale: " + e.getMessage());
        }
        if (wanted == null) {
            return StatusJson.failure(
                    415,
                    "UnsupportedMediaType",
                    "the body of the request was in an unknown format - accepted media types include: "
                            + "application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json");
        }
        String version = wanted.path("metadata").path("resourceVersion").asText("");
        if (!version.isEmpty()
                && !version.equals(
                        scale.path("metadata").path("resourceVersion").asText(""))) {
            return StatusJson.failure(
                    409,
                    "Conflict",
                    "Operation cannot be fulfilled on " + resource + " \"" + m.group(3)
                            + "\": the object has been modified; please apply your changes to the latest version and try again");
        }
        JsonNode replicas = wanted.path("spec").path("replicas");
        if (!replicas.isIntegralNumber() || replicas.asLong() < 0 || replicas.asLong() > Integer.MAX_VALUE) {
            return StatusJson.failure(
                    422,
                    "Invalid",
                    "Scale.autoscaling \"" + m.group(3) + "\" is invalid: spec.replicas: Invalid value: " + replicas
                            + ": must be greater than or equal to 0");
        }
        MockResponse r = mergePatch.apply(objectPath, "{\"spec\":{\"replicas\":" + replicas.asInt() + "}}");
        if (r.code() >= 300) {
            return r;
        }
        return StatusJson.json(JSON.writeValueAsString(scaleOf((ObjectNode) JSON.readTree(body(r)))));
    }

    /** The Scale with {@code request}'s patch applied; null for a patch type not known. */
    private static JsonNode patched(ObjectNode scale, RecordedRequest request) {
        String type = request.getHeader("Content-Type");
        String body = request.getUtf8Body();
        if (type != null && type.startsWith("application/json-patch+json")) {
            return JsonPatch.apply(JSON.readTree(body), scale);
        }
        if (type != null
                && (type.startsWith("application/merge-patch+json")
                        || type.startsWith("application/strategic-merge-patch+json"))) {
            return merge(scale.deepCopy(), JSON.readTree(body));
        }
        return null;
    }

    /** RFC 7386 merge of {@code patch} into {@code target}. */
    private static JsonNode merge(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            return patch;
        }
        ObjectNode out = target.isObject() ? (ObjectNode) target : JSON.createObjectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = patch.properties().iterator(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getValue().isNull()) {
                out.remove(e.getKey());
            } else {
                out.set(e.getKey(), merge(out.path(e.getKey()), e.getValue()));
            }
        }
        return out;
    }

    static ObjectNode scaleOf(JsonNode object) {
        ObjectNode scale = JSON.createObjectNode();
        scale.put("kind", "Scale");
        scale.put("apiVersion", "autoscaling/v1");
        ObjectNode meta = scale.putObject("metadata");
        JsonNode om = object.path("metadata");
        for (String f : new String[] {"name", "namespace", "uid", "resourceVersion", "creationTimestamp"}) {
            if (om.hasNonNull(f)) {
                meta.set(f, om.get(f));
            }
        }
        scale.putObject("spec")
                .put("replicas", object.path("spec").path("replicas").asInt(1));
        ObjectNode status = scale.putObject("status");
        status.put("replicas", object.path("status").path("replicas").asInt(0));
        String selector = selector(object.path("spec").path("selector"));
        if (!selector.isEmpty()) {
            status.put("selector", selector);
        }
        return scale;
    }

    /** A label selector as its string form ({@code a=b,c in (x,y),!d}). */
    static String selector(JsonNode s) {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, JsonNode> e : s.path("matchLabels").properties()) {
            b.append(b.isEmpty() ? "" : ",")
                    .append(e.getKey())
                    .append('=')
                    .append(e.getValue().asText());
        }
        for (JsonNode r : s.path("matchExpressions")) {
            String key = r.path("key").asText();
            StringBuilder values = new StringBuilder();
            for (JsonNode v : r.path("values")) {
                values.append(values.isEmpty() ? "" : ",").append(v.asText());
            }
            String term = switch (r.path("operator").asText()) {
                case "In" -> key + " in (" + values + ")";
                case "NotIn" -> key + " notin (" + values + ")";
                case "Exists" -> key;
                case "DoesNotExist" -> "!" + key;
                default -> "";
            };
            if (!term.isEmpty()) {
                b.append(b.isEmpty() ? "" : ",").append(term);
            }
        }
        return b.toString();
    }

    private static String body(MockResponse r) {
        return new String(r.getBody().getBytes(), StandardCharsets.UTF_8);
    }
}
