package io.hotsched.embedded;

import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.zjsonpatch.JsonPatch;
import java.util.Locale;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * PATCH as kube-apiserver answers it, for the three patch types kubectl and client-go send: JSON
 * patch (RFC 6902, zjsonpatch), merge patch ({@link MergePatch}) and strategic merge patch
 * ({@link StrategicMerge}; refused for custom resources, as a real server does). The patched object
 * is then stored as an update of the current one, under the store's write lock, so nothing is
 * written in between and the update's own rules (resource version, status subresource, finalizers,
 * the defaults of a pod) hold.
 */
final class Patches {

    static final String JSON_PATCH = "application/json-patch+json";
    static final String MERGE_PATCH = "application/merge-patch+json";
    static final String STRATEGIC = "application/strategic-merge-patch+json";
    static final String APPLY = "application/apply-patch+yaml";

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private final StoreAccess store;
    private final Function<RecordedRequest, MockResponse> update;

    /**
     * @param store the store's lock and objects
     * @param update stores a PUT
     */
    Patches(StoreAccess store, Function<RecordedRequest, MockResponse> update) {
        this.store = store;
        this.update = update;
    }

    MockResponse patch(RecordedRequest request) {
        MockResponse refused = WriteOptions.of(request.getPath()).refusal("PatchOptions", false);
        if (refused != null) {
            return refused;
        }
        String contentType = request.getHeader("Content-Type");
        String type =
                contentType == null ? "" : contentType.split(";")[0].trim().toLowerCase(Locale.ROOT);
        boolean custom = isCustom(request.getPath());
        if (!type.equals(JSON_PATCH) && !type.equals(MERGE_PATCH) && !(type.equals(STRATEGIC) && !custom)) {
            return StatusJson.failure(
                    415,
                    "UnsupportedMediaType",
                    "the body of the request was in an unknown format - accepted media types include: " + JSON_PATCH
                            + ", " + MERGE_PATCH + ", " + APPLY + (custom ? "" : ", " + STRATEGIC));
        }
        JsonNode patch;
        try {
            patch = JSON.readTree(request.getBody().getBytes());
        } catch (RuntimeException e) {
            return StatusJson.failure(400, "BadRequest", "the patch is not JSON: " + e.getMessage());
        }
        store.lock().lock();
        try {
            String stored = store.current().apply(request.getPath());
            if (stored == null) {
                // the caller words the 404
                return new MockResponse().setResponseCode(404);
            }
            JsonNode object = JSON.readTree(stored);
            JsonNode patched;
            try {
                patched = switch (type) {
                    case JSON_PATCH -> JsonPatch.apply(patch, object);
                    case MERGE_PATCH -> MergePatch.apply(object, patch);
                    default -> StrategicMerge.apply(object, patch);
                };
            } catch (RuntimeException e) {
                return StatusJson.failure(422, "Invalid", "the patch could not be applied: " + e.getMessage());
            }
            if (!patched.isObject()) {
                return StatusJson.failure(422, "Invalid", "the patched object is not a JSON object");
            }
            MockResponse r = update.apply(new RecordedRequest(
                    request.getHttpVersion(),
                    HttpMethod.PUT,
                    request.getPath(),
                    request.getHeaders()
                            .newBuilder()
                            .set("Content-Type", Negotiation.JSON)
                            .build(),
                    new Buffer(JSON.writeValueAsBytes(patched))));
            // an update whose body was all there is to say: a PATCH answers the object, as on PUT
            return r;
        } finally {
            store.lock().unlock();
        }
    }

    private boolean isCustom(String path) {
        ResourcePath target = ResourcePath.of(path);
        return target != null && store.isCustom(target.group());
    }
}
