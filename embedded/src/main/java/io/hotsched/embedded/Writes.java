package io.hotsched.embedded;

import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A create (POST) or update (PUT) on its way to the store, as kube-apiserver handles it: the write
 * options are checked, {@link Admission} defaults and admits, {@link ObjectValidation} refuses what
 * kube-apiserver refuses (422), and {@link FieldManager} records who changed which fields in
 * {@code metadata.managedFields}. Field management runs where it costs the writers that do not
 * ask for it nothing: on a create that names a {@code fieldManager} (kubectl always does; the
 * scheduler, the stand-ins and the benchmark never do), and on an update of an object that has
 * managed fields (kube-apiserver does not track an object without them either, until an apply).
 */
final class Writes {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final byte[] MANAGED_FIELDS = "\"managedFields\"".getBytes(StandardCharsets.UTF_8);

    private final Admission admission;
    private final StoreAccess access;
    private final Function<RecordedRequest, MockResponse> store;
    private final AdmittedCreate creates;

    /**
     * @param access the store's lock and objects
     * @param store the store's own handling of a request
     * @param creates the store's create of an admitted pod tree; null: {@code store} creates them too
     */
    Writes(
            Admission admission,
            StoreAccess access,
            Function<RecordedRequest, MockResponse> store,
            AdmittedCreate creates) {
        this.admission = admission;
        this.access = access;
        this.store = store;
        this.creates = creates;
    }

    /** A client's create or update. */
    MockResponse write(RecordedRequest request) {
        return write(request, true);
    }

    /** A create or update whose managed fields are set already (a server-side apply's). */
    MockResponse writeManaged(RecordedRequest request) {
        return write(request, false);
    }

    private MockResponse write(RecordedRequest request, boolean track) {
        ResourcePath target = ResourcePath.of(request.getPath());
        boolean update = request.method() == HttpMethod.PUT;
        boolean object = target != null && (update ? target.isObject() : target.name() == null);
        if (object) {
            MockResponse refused =
                    WriteOptions.of(request.getPath()).refusal(update ? "UpdateOptions" : "CreateOptions", false);
            if (refused != null) {
                return refused;
            }
        }
        Admission.Outcome admitted = admission.admit(request);
        if (admitted.refusal() != null) {
            return admitted.refusal();
        }
        if (!object) {
            return store.apply(Admission.toStore(admitted));
        }
        if (!update) {
            return checked(admitted, target, null, track);
        }
        // the stored object read, compared and replaced with nothing written in between
        access.lock().lock();
        try {
            String old = access.current().apply(request.getPath());
            return old == null ? store.apply(Admission.toStore(admitted)) : checked(admitted, target, old, track);
        } finally {
            access.lock().unlock();
        }
    }

    private MockResponse checked(Admission.Outcome admitted, ResourcePath target, String old, boolean track) {
        RecordedRequest request = admitted.request();
        byte[] bytes =
                request.getBody() == null ? new byte[0] : request.getBody().getBytes();
        WriteOptions options = WriteOptions.of(request.getPath());
        boolean manage = track
                && (old == null
                        ? !options.fieldManager().isEmpty()
                        : old.contains("\"managedFields\"") || ObjectMeta.mentions(bytes, MANAGED_FIELDS));
        boolean needsTree = manage || ObjectValidation.needsTree(target, bytes, old != null);
        JsonNode tree = admitted.body() != null ? admitted.body() : needsTree ? parse(bytes) : null;
        ObjectMeta meta = tree != null ? ObjectMeta.of(tree) : ObjectMeta.scan(bytes);
        if (meta == null || (needsTree && tree == null)) {
            // not an object: the store answers it in its words
            return store.apply(request);
        }
        String undecodable = tree == null || !target.group().isEmpty()
                ? null
                : switch (target.resource()) {
                    case "nodes" -> NodeValidation.undecodable(tree);
                    case "pods" -> PodValidation.undecodable(tree);
                    default -> null;
                };
        if (undecodable != null) {
            return StatusJson.failure(400, "BadRequest", undecodable);
        }
        JsonNode oldTree = old != null && needsTree ? parse(old.getBytes(StandardCharsets.UTF_8)) : null;
        List<FieldErrors.Cause> causes = ObjectValidation.check(target, meta, tree, oldTree, old != null);
        if (!causes.isEmpty()) {
            return FieldErrors.invalidStatus(target.group(), kind(meta, target), meta.name(), causes);
        }
        if (!manage || !(tree instanceof ObjectNode object)) {
            if (options.dryRunOnly()) {
                return dryRun(
                        request.method(), admitted.body() != null ? JSON.writeValueAsBytes(admitted.body()) : bytes);
            }
            return stored(admitted, admitted.body());
        }
        manageFields(object, oldTree, options.managerOr(request.getHeader("User-Agent")), target);
        if (options.dryRunOnly()) {
            return dryRun(request.method(), JSON.writeValueAsBytes(object));
        }
        if (creates != null && Admission.isPodCreate(admitted)) {
            return stored(admitted, object);
        }
        return store.apply(new RecordedRequest(
                request.getHttpVersion(),
                request.method(),
                request.getPath(),
                request.getHeaders(),
                new Buffer(JSON.writeValueAsBytes(object))));
    }

    /**
     * The answer to a {@code dryRun=All} write: what would be stored (admitted, validated, with its
     * managed fields), without what the store adds (uid, resourceVersion).
     */
    private static MockResponse dryRun(HttpMethod method, byte[] object) {
        return new MockResponse()
                .setResponseCode(method == HttpMethod.POST ? 201 : 200)
                .setHeader("Content-Type", Negotiation.JSON)
                .setBody(new String(object, StandardCharsets.UTF_8));
    }

    /** {@code admitted} stored with {@code tree} (its admitted body, or that with managed fields) as the object. */
    private MockResponse stored(Admission.Outcome admitted, ObjectNode tree) {
        if (creates != null && tree != null && Admission.isPodCreate(admitted)) {
            return creates.create(admitted.request().getPath(), "pods", "v1", "Pod", tree);
        }
        return store.apply(Admission.toStore(admitted));
    }

    /** Sets the managed fields of {@code object} after {@code manager} wrote it over {@code old} (null: created it). */
    private void manageFields(ObjectNode object, JsonNode old, String manager, ResourcePath target) {
        ObjectNode metadata = object.withObject("metadata");
        JsonNode given = metadata.get("managedFields");
        if (ManagedFields.resets(given)) {
            metadata.remove("managedFields");
            return;
        }
        List<ManagedFields.Entry> base = ManagedFields.read(given);
        if (base.isEmpty()) {
            base = ManagedFields.of(old);
        }
        List<ManagedFields.Entry> managers = FieldManager.update(
                base,
                old,
                object,
                manager,
                object.path("apiVersion").asText(target.groupVersion()),
                access.rules(target.group()),
                Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        metadata.set("managedFields", ManagedFields.write(managers));
    }

    private static String kind(ObjectMeta meta, ResourcePath target) {
        if (!meta.kind().isEmpty()) {
            return meta.kind();
        }
        String[] kind = Discovery.kindAt(target.collection());
        return kind == null ? target.resource() : kind[1];
    }

    private static JsonNode parse(byte[] bytes) {
        try {
            JsonNode tree = JSON.readTree(bytes);
            return tree != null && tree.isObject() ? tree : null;
        } catch (RuntimeException e) {
            return null;
        }
    }
}
