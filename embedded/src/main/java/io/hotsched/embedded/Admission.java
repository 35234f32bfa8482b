package io.hotsched.embedded;

import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * What happens to a new object between the request and the store on kube-apiserver: defaulting
 * ({@link PodDefaults}) and admission ({@link PriorityAdmission}) for pods, the Active phase for
 * namespaces. The store then adds uid, creationTimestamp, generation and resourceVersion.
 */
final class Admission {

    private static final Pattern POD_CREATE = Pattern.compile("/api/v1/namespaces/[^/]+/pods/?(\\?.*)?");
    private static final Pattern POD_UPDATE = Pattern.compile("/api/v1/namespaces/[^/]+/pods/[^/?]+/?(\\?.*)?");
    private static final Pattern NAMESPACE_CREATE = Pattern.compile("/api/v1/namespaces/?(\\?.*)?");
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    final PriorityAdmission priority = new PriorityAdmission();

    /**
     * The refusal, or what to store: {@code request} as it came, and {@code body}, the object as
     * admitted when it was parsed here (then the store takes {@link #toStore(Outcome)}, or a pod
     * create the tree itself, serialized once).
     */
    record Outcome(RecordedRequest request, MockResponse refusal, ObjectNode body) {}

    /** The request that stores what {@code admitted} let through. */
    static RecordedRequest toStore(Outcome admitted) {
        RecordedRequest r = admitted.request();
        if (admitted.body() == null) {
            return r;
        }
        return new RecordedRequest(
                r.getHttpVersion(),
                r.method(),
                r.getPath(),
                r.getHeaders(),
                new Buffer(JSON.writeValueAsBytes(admitted.body())));
    }

    /** Whether {@code admitted} is a pod create that admission parsed (the store can take its tree as it is). */
    static boolean isPodCreate(Outcome admitted) {
        return admitted.body() != null
                && admitted.request().method() == io.fabric8.mockwebserver.dsl.HttpMethod.POST
                && POD_CREATE.matcher(admitted.request().getPath()).matches();
    }

    /**
     * {@code create} (a POST) as the store should see it; a PUT of a pod gets its defaults too
     * (kube-apiserver defaults every body it decodes), not its priority (admitted once, on create).
     */
    Outcome admit(RecordedRequest create) {
        String path = create.getPath();
        boolean update = create.method() == io.fabric8.mockwebserver.dsl.HttpMethod.PUT;
        boolean pod = update
                ? POD_UPDATE.matcher(path).matches()
                : POD_CREATE.matcher(path).matches();
        if (!pod && (update || !NAMESPACE_CREATE.matcher(path).matches())) {
            return new Outcome(create, null, null);
        }
        JsonNode body;
        try {
            body = JSON.readTree(create.getBody().getBytes());
        } catch (RuntimeException e) {
            return new Outcome(
                    null, StatusJson.failure(400, "BadRequest", "the body is not JSON: " + e.getMessage()), null);
        }
        if (!(body instanceof ObjectNode object)) {
            return new Outcome(create, null, null);
        }
        if (pod) {
            PodDefaults.apply(object);
            String forbidden = update ? null : priority.admit(object);
            if (forbidden != null) {
                return new Outcome(null, StatusJson.failure(403, "Forbidden", forbidden), null);
            }
        } else if (object.path("status").path("phase").asText("").isEmpty()) {
            object.withObject("status").put("phase", "Active");
        }
        return new Outcome(create, null, object);
    }

    /** Keeps the admission's view of PriorityClasses in step with a write to the store. */
    void written(String path, String newState) {
        if (PriorityAdmission.isPriorityClassPath(path)) {
            String p = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
            priority.written(p.substring(p.lastIndexOf('/') + 1), newState);
        }
    }

    void clear() {
        priority.clear();
    }
}
