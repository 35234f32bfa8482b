package io.hotsched.embedded;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.kubernetes.client.server.mock.crud.KubernetesCrudPersistence;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.MockResponse;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.Lock;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The create of an object admission has already parsed, written straight to the store: one
 * serialization, where handing the admitted body back to the store's own create would parse and
 * serialize the object a second time (the pod-create rate of the embedded server is what the
 * benchmark measures). It does what the store's create does, in kube-apiserver's words: the name
 * from {@code generateName}, the namespace from the URL, uid, creationTimestamp, generation 1 and a
 * fresh resourceVersion, 409 {@code AlreadyExists} for a taken name.
 */
final class AdmittedCreate {

    /** The characters kube-apiserver appends to a {@code generateName} (no vowels, no look-alikes). */
    private static final String NAME_SUFFIX_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private final KubernetesCrudPersistence store;
    private final Lock write;

    AdmittedCreate(KubernetesCrudPersistence store, Lock write) {
        this.store = store;
        this.write = write;
    }

    /**
     * Stores {@code object}, posted to the collection {@code path} ({@code /api/v1/namespaces/NS/pods}),
     * and answers as kube-apiserver does: 201 with the stored object.
     */
    MockResponse create(String path, String resource, String apiVersion, String kind, ObjectNode object) {
        // kube-apiserver takes the type of a body without one from the URL
        if (object.path("apiVersion").asText("").isEmpty()) {
            object.put("apiVersion", apiVersion);
        }
        if (object.path("kind").asText("").isEmpty()) {
            object.put("kind", kind);
        }
        ObjectNode metadata = object.withObject("metadata");
        String name = metadata.path("name").asText("");
        if (name.isEmpty()) {
            String prefix = metadata.path("generateName").asText("");
            if (prefix.isEmpty()) {
                return StatusJson.failure(
                        422,
                        "Invalid",
                        kind + " \"\" is invalid: metadata.name: Required value: name or generateName is"
                                + " required");
            }
            name = prefix + suffix();
            metadata.put("name", name);
        }
        AttributeSet key = store.getKey(path);
        String namespace = key.getAttribute(KubernetesAttributesExtractor.NAMESPACE) == null
                ? null
                : String.valueOf(key.getAttribute(KubernetesAttributesExtractor.NAMESPACE)
                        .getValues()
                        .iterator()
                        .next());
        String bodyNamespace = metadata.path("namespace").asText("");
        if (namespace != null && !bodyNamespace.isEmpty() && !bodyNamespace.equals(namespace)) {
            return StatusJson.failure(
                    400,
                    "BadRequest",
                    "the namespace of the object (" + bodyNamespace + ") does not match the namespace on the URL ("
                            + namespace + ")");
        }
        if (namespace != null) {
            metadata.put("namespace", namespace);
        }
        metadata.remove("deletionTimestamp");
        metadata.put("uid", UUID.randomUUID().toString());
        metadata.put(
                "creationTimestamp",
                Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        metadata.put("generation", 1L);
        AttributeSet named = key.add(new Attribute(KubernetesAttributesExtractor.NAME, name));
        write.lock();
        try {
            if (store.findResource(named) != null) {
                return StatusJson.failure(409, "AlreadyExists", resource + " \"" + name + "\" already exists");
            }
            metadata.put("resourceVersion", String.valueOf(store.requestResourceVersion()));
            String stored = JSON.writeValueAsString(object);
            store.processEvent(path, named, null, keyOf(object, metadata), stored);
            return new MockResponse()
                    .setResponseCode(201)
                    .setHeader("Content-Type", "application/json")
                    .setBody(stored);
        } finally {
            write.unlock();
        }
    }

    /** What the store keys an object by (kind, version, name, namespace, labels), without the rest of it. */
    private static GenericKubernetesResource keyOf(ObjectNode object, ObjectNode metadata) {
        GenericKubernetesResource r = new GenericKubernetesResource();
        r.setApiVersion(object.path("apiVersion").asText(null));
        r.setKind(object.path("kind").asText(null));
        ObjectMeta meta = new ObjectMeta();
        meta.setName(metadata.path("name").asText(null));
        meta.setNamespace(metadata.path("namespace").asText(null));
        JsonNode labels = metadata.path("labels");
        if (labels.isObject()) {
            Map<String, String> l = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> e : labels.properties()) {
                l.put(e.getKey(), e.getValue().asText());
            }
            meta.setLabels(l);
        }
        r.setMetadata(meta);
        return r;
    }

    private static String suffix() {
        StringBuilder b = new StringBuilder(5);
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < 5; i++) {
            b.append(NAME_SUFFIX_ALPHABET.charAt(random.nextInt(NAME_SUFFIX_ALPHABET.length())));
        }
        return b.toString();
    }
}
