package io.hotsched.embedded;

import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Server-side apply ({@code PATCH} with {@code application/apply-patch+yaml}, what
 * {@code kubectl apply --server-side} sends): the configuration, YAML or JSON, is merged into the
 * object, or creates it, by {@link FieldManager}'s rules, with {@code fieldManager} required and
 * {@code force=true} taking fields from other managers; conflicts get kube-apiserver's 409. The
 * result is stored as a create or an update, under the store's write lock, with its admission and
 * validation.
 */
final class ServerSideApply {

    static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final StoreAccess store;
    private final Function<RecordedRequest, MockResponse> write;

    /**
     * @param store the store's lock and objects
     * @param write stores a POST or PUT whose managed fields are set already
     */
    ServerSideApply(StoreAccess store, Function<RecordedRequest, MockResponse> write) {
        this.store = store;
        this.write = write;
    }

    static boolean isApply(RecordedRequest request) {
        String type = request.getHeader("Content-Type");
        return type != null
                && type.split(";")[0].trim().toLowerCase(Locale.ROOT).equals(Patches.APPLY);
    }

    MockResponse apply(RecordedRequest request) {
        String path = request.getPath();
        ResourcePath target = ResourcePath.of(path);
        if (target == null || !target.isObject()) {
            return StatusJson.failure(
                    415,
                    "UnsupportedMediaType",
                    "server-side apply is served for whole objects here, not for "
                            + (target == null || target.subresource() == null
                                    ? "collections"
                                    : "the " + target.subresource() + " subresource")
                            + "; use a merge or strategic merge patch");
        }
        WriteOptions options = WriteOptions.of(path);
        MockResponse refused = options.refusal("PatchOptions", true);
        if (refused != null) {
            return refused;
        }
        String text =
                request.getBody() == null ? "" : new String(request.getBody().getBytes(), StandardCharsets.UTF_8);
        ObjectNode config;
        try {
            config = parse(text);
        } catch (RuntimeException e) {
            return StatusJson.failure(400, "BadRequest", "error decoding YAML: " + e.getMessage());
        }
        MockResponse wrong = wrongConfig(config, text, target);
        if (wrong != null) {
            return wrong;
        }
        config.withObject("metadata").put("name", target.name());
        boolean custom = store.isCustom(target.group());
        if (!custom) {
            // status is written through its subresource: a main-resource apply resets it
            config.remove("status");
        }
        String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        store.lock().lock();
        try {
            String stored = store.current().apply(path);
            ObjectNode live = stored == null ? null : (ObjectNode) JSON.readTree(stored);
            FieldManager.Applied applied = FieldManager.apply(
                    ManagedFields.of(live),
                    live,
                    config,
                    options.fieldManager(),
                    options.forced(),
                    store.rules(target.group()),
                    now);
            if (!applied.conflicts().isEmpty()) {
                return conflict(applied.conflicts());
            }
            ObjectNode object = applied.object();
            keepLastApplied(object, config, options.fieldManager());
            object.withObject("metadata").set("managedFields", ManagedFields.write(applied.managers()));
            String query = path.contains("?") ? path.substring(path.indexOf('?')) : "";
            return write.apply(new RecordedRequest(
                    request.getHttpVersion(),
                    live == null ? HttpMethod.POST : HttpMethod.PUT,
                    live == null ? target.collection() + query : path,
                    request.getHeaders()
                            .newBuilder()
                            .set("Content-Type", Negotiation.JSON)
                            .build(),
                    new Buffer(JSON.writeValueAsBytes(object))));
        } finally {
            store.lock().unlock();
        }
    }

    private static ObjectNode parse(String text) {
        String t = text.stripLeading();
        JsonNode tree = t.startsWith("{")
                ? JSON.readTree(t)
                : JSON.valueToTree(new Load(LoadSettings.builder().build()).loadFromString(text));
        if (!(tree instanceof ObjectNode o)) {
            throw new IllegalArgumentException("the configuration is not an object");
        }
        return o;
    }

    /** The 400 kube-apiserver gives a configuration that cannot be applied at {@code target}, or null. */
    private static MockResponse wrongConfig(ObjectNode config, String text, ResourcePath target) {
        if (config.path("kind").asText("").isEmpty()) {
            return StatusJson.failure(400, "BadRequest", "Object 'Kind' is missing in '" + text.strip() + "'");
        }
        String apiVersion = config.path("apiVersion").asText("");
        if (!apiVersion.equals(target.groupVersion())) {
            return StatusJson.failure(
                    400,
                    "BadRequest",
                    "the API version in the data (" + apiVersion + ") does not match the expected API version ("
                            + target.groupVersion() + ")");
        }
        JsonNode metadata = config.path("metadata");
        if (metadata.has("managedFields")) {
            return StatusJson.failure(400, "BadRequest", "metadata.managedFields must be nil");
        }
        String name = metadata.path("name").asText("");
        if (!name.isEmpty() && !name.equals(target.name())) {
            return StatusJson.failure(
                    400,
                    "BadRequest",
                    "the name of the object (" + name + ") does not match the name on the URL (" + target.name() + ")");
        }
        return null;
    }

    /**
     * As kube-apiserver does for kubectl's own applies: an object that still has client-side
     * apply's annotation gets it rewritten to the configuration now applied, so that a later
     * client-side apply starts from it.
     */
    private static void keepLastApplied(ObjectNode object, ObjectNode config, String manager) {
        JsonNode annotations = object.path("metadata").path("annotations");
        if (!manager.equals("kubectl") || !annotations.has(LAST_APPLIED)) {
            return;
        }
        ObjectNode applied = config.deepCopy();
        if (applied.path("metadata").path("annotations") instanceof ObjectNode a) {
            a.remove(LAST_APPLIED);
            if (a.isEmpty()) {
                ((ObjectNode) applied.get("metadata")).remove("annotations");
            }
        }
        ((ObjectNode) annotations).put(LAST_APPLIED, JSON.writeValueAsString(applied));
    }

    private static MockResponse conflict(List<FieldManager.Conflict> conflicts) {
        ObjectNode status = JSON.createObjectNode();
        status.put("kind", "Status");
        status.put("apiVersion", "v1");
        status.putObject("metadata");
        status.put("status", "Failure");
        status.put("message", FieldManager.message(conflicts));
        status.put("reason", "Conflict");
        var causes = status.putObject("details").putArray("causes");
        for (FieldManager.Conflict c : conflicts) {
            ObjectNode o = causes.addObject();
            o.put("reason", "FieldManagerConflict");
            o.put("message", "conflict with " + c.manager().described());
            o.put("field", FieldSet.describe(c.path()));
        }
        status.put("code", 409);
        return new MockResponse()
                .setResponseCode(409)
                .setHeader("Content-Type", "application/json")
                .setBody(JSON.writeValueAsString(status));
    }
}
