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
 * The {@code scale} subresource of Deployments, ReplicaSets, StatefulSets and the custom resources
 * whose definition has one: an autoscaling/v1 {@code Scale} read from the object (for the built-in
 * kinds {@code spec.replicas}, {@code status.replicas} and the selector as a string; for a custom
 * resource the definition's {@code specReplicasPath}, {@code statusReplicasPath} and
 * {@code labelSelectorPath}), and written back to the spec's replicas by PUT or PATCH (merge,
 * strategic merge, which for a Scale is the same, or JSON patch), as {@code kubectl scale} and
 * autoscalers use it.
 */
final class ScaleSubresource {

    private static final Pattern PATH = Pattern.compile(
            "/apis/apps/v1/namespaces/([^/?]+)/(deployments|replicasets|statefulsets)/([^/?]+)/scale/?(\\?.*)?");
    private static final Map<String, String> KIND = Map.of(
            "deployments", "deployments.apps", "replicasets", "replicasets.apps", "statefulsets", "statefulsets.apps");
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    /** Where the built-in kinds keep replicas; their selector is {@code spec.selector}, a LabelSelector. */
    private static final CustomResourceDefinitions.ScalePaths BUILT_IN =
            new CustomResourceDefinitions.ScalePaths(".spec.replicas", ".status.replicas", null);

    /** What a scale request is about: the object's path, the resource and name for messages, the paths. */
    record Scaled(String objectPath, String resource, String name, CustomResourceDefinitions.ScalePaths paths) {}

    private final Function<String, MockResponse> get;
    private final BiFunction<String, String, MockResponse> mergePatch;
    private final Function<String, Scaled> custom;

    /**
     * @param get the store's GET of an object path
     * @param mergePatch the store's merge patch of an object path with a patch body
     * @param custom the custom resource a scale path is for, or null
     */
    ScaleSubresource(
            Function<String, MockResponse> get,
            BiFunction<String, String, MockResponse> mergePatch,
            Function<String, Scaled> custom) {
        this.get = get;
        this.mergePatch = mergePatch;
        this.custom = custom;
    }

    private Scaled target(String path) {
        Matcher m = PATH.matcher(path);
        if (m.matches()) {
            return new Scaled(
                    "/apis/apps/v1/namespaces/" + m.group(1) + "/" + m.group(2) + "/" + m.group(3),
                    KIND.get(m.group(2)),
                    m.group(3),
                    BUILT_IN);
        }
        return custom.apply(path);
    }

    /** The answer to {@code request} when it is for a scale subresource, else null. */
    MockResponse dispatch(RecordedRequest request) {
        Scaled target = target(request.getPath());
        if (target == null) {
            return null;
        }
        String objectPath = target.objectPath();
        String resource = target.resource();
        MockResponse current = get.apply(objectPath);
        if (current.code() == 404) {
            return StatusJson.failure(404, "NotFound", resource + " \"" + target.name() + "\" not found");
        }
        ObjectNode object = (ObjectNode) JSON.readTree(body(current));
        ObjectNode scale = scaleOf(object, target.paths());
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
                    "Operation cannot be fulfilled on " + resource + " \"" + target.name()
                            + "\": the object has been modified; please apply your changes to the latest version and try again");
        }
        JsonNode replicas = wanted.path("spec").path("replicas");
        if (!replicas.isIntegralNumber() || replicas.asLong() < 0 || replicas.asLong() > Integer.MAX_VALUE) {
            return StatusJson.failure(
                    422,
                    "Invalid",
                    "Scale.autoscaling \"" + target.name() + "\" is invalid: spec.replicas: Invalid value: " + replicas
                            + ": must be greater than or equal to 0");
        }
        MockResponse r = mergePatch.apply(
                objectPath, JSON.writeValueAsString(nested(target.paths().specReplicas(), replicas.asInt())));
        if (r.code() >= 300) {
            return r;
        }
        return StatusJson.json(JSON.writeValueAsString(scaleOf((ObjectNode) JSON.readTree(body(r)), target.paths())));
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
        return scaleOf(object, BUILT_IN);
    }

    /** The Scale of {@code object}, its replicas and selector read where {@code paths} say. */
    static ObjectNode scaleOf(JsonNode object, CustomResourceDefinitions.ScalePaths paths) {
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
        // a Deployment without replicas has one; a custom resource's missing count is 0, as upstream
        scale.putObject("spec").put("replicas", at(object, paths.specReplicas()).asInt(paths == BUILT_IN ? 1 : 0));
        ObjectNode status = scale.putObject("status");
        status.put("replicas", at(object, paths.statusReplicas()).asInt(0));
        String selector = paths.labelSelector() == null
                ? selector(object.path("spec").path("selector"))
                : at(object, paths.labelSelector()).asText("");
        if (!selector.isEmpty()) {
            status.put("selector", selector);
        }
        return scale;
    }

    /** The value at a simple JSON path ({@code .status.replicas}); missing when it is not there. */
    private static JsonNode at(JsonNode object, String path) {
        JsonNode n = object;
        for (String part : path.split("\\.")) {
            if (!part.isEmpty()) {
                n = n.path(part);
            }
        }
        return n;
    }

    /** {@code {"spec":{"replicas":N}}} for {@code .spec.replicas}. */
    private static ObjectNode nested(String path, int value) {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode n = root;
        String[] parts = path.replaceFirst("^\\.", "").split("\\.");
        for (int i = 0; i < parts.length - 1; i++) {
            n = n.putObject(parts[i]);
        }
        n.put(parts[parts.length - 1], value);
        return root;
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
