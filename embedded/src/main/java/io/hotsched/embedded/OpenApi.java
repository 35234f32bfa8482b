package io.hotsched.embedded;

import io.fabric8.mockwebserver.http.MockResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The OpenAPI documents of the served kinds (built-in and from CustomResourceDefinitions), in JSON:
 * {@code /openapi/v3} (the index of group-versions), {@code /openapi/v3/api/v1} and
 * {@code /openapi/v3/apis/GROUP/VERSION} (the schemas, and a PATCH operation per resource naming
 * its kind and the {@code fieldValidation} parameter), and {@code /openapi/v2}, also in protobuf
 * ({@link OpenApiV2Protobuf}). kubectl 1.32 reads the PATCH operations to learn that the server
 * validates fields itself: it then skips its own validation and sends {@code fieldValidation}
 * ({@link FieldValidation} answers it); a {@code kind: List} manifest it still validates itself,
 * with the v2 document in protobuf. {@code kubectl explain} reads the v3 schemas. Each document is
 * built on its first request and kept until the served kinds change.
 */
final class OpenApi {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final OpenApiSchemas schemas;
    private final java.util.function.Supplier<Map<String, List<Discovery.Res>>> groups;
    private final Map<String, String> documents = new ConcurrentHashMap<>();
    private volatile byte[] v2Protobuf;

    /** @param groups the served group-versions and their resources, as discovery has them now */
    OpenApi(OpenApiSchemas schemas, java.util.function.Supplier<Map<String, List<Discovery.Res>>> groups) {
        this.schemas = schemas;
        this.groups = groups;
    }

    /** Forgets the documents built so far (the served kinds changed). */
    void changed() {
        documents.clear();
        v2Protobuf = null;
    }

    /**
     * The answer for {@code path} under {@code /openapi/} to a request accepting {@code accept}, or
     * null for a path that is not one.
     */
    MockResponse answer(String path, String accept) {
        if (OpenApiV2Protobuf.wanted(path, accept)) {
            byte[] proto = v2Protobuf;
            if (proto == null) {
                proto = OpenApiV2Protobuf.encode(JSON.readTree(cached("/openapi/v2", this::v2)));
                v2Protobuf = proto;
            }
            return new MockResponse()
                    .setResponseCode(200)
                    .setHeader("Content-Type", OpenApiV2Protobuf.MEDIA_TYPE)
                    .setBody(new io.fabric8.mockwebserver.http.Buffer(proto));
        }
        return answer(path);
    }

    /** The JSON answer for {@code path} under {@code /openapi/}, or null for a path that is not one. */
    MockResponse answer(String path) {
        String p = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
        if (p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        String doc;
        if (p.equals("/openapi/v3")) {
            doc = cached(p, this::index);
        } else if (p.equals("/openapi/v2")) {
            doc = cached(p, this::v2);
        } else if (p.startsWith("/openapi/v3/")) {
            String gv = groupVersion(p.substring("/openapi/v3/".length()), groups.get());
            doc = gv == null ? null : v3Cached(gv);
        } else {
            doc = null;
        }
        return doc == null ? null : StatusJson.json(doc);
    }

    /** {@code api/v1} → {@code v1}, {@code apis/apps/v1} → {@code apps/v1}; null when not served. */
    private static String groupVersion(String path, Map<String, List<Discovery.Res>> served) {
        String gv = path.equals("api/v1") ? "v1" : path.startsWith("apis/") ? path.substring(5) : null;
        return gv != null && served.containsKey(gv) && (gv.equals("v1") || gv.contains("/")) ? gv : null;
    }

    private static String pathOf(String gv) {
        return gv.equals("v1") ? "api/v1" : "apis/" + gv;
    }

    private String index() {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode paths = root.putObject("paths");
        for (String gv : groups.get().keySet()) {
            // the hash tells a client's disk cache when a document changed
            paths.putObject(pathOf(gv))
                    .put("serverRelativeURL", "/openapi/v3/" + pathOf(gv) + "?hash=" + hash(v3Cached(gv)));
        }
        return JSON.writeValueAsString(root);
    }

    private String v3Cached(String gv) {
        return cached("/openapi/v3/" + pathOf(gv), () -> v3(gv));
    }

    /** The document at {@code key}, built once (the index builds the others, so no computeIfAbsent). */
    private String cached(String key, java.util.function.Supplier<String> build) {
        String doc = documents.get(key);
        if (doc == null) {
            String built = build.get();
            doc = documents.putIfAbsent(key, built);
            return doc != null ? doc : built;
        }
        return doc;
    }

    private String v3(String gv) {
        ObjectNode doc = JSON.createObjectNode().put("openapi", "3.0.0");
        doc.putObject("info").put("title", "hotsched embedded API server").put("version", Discovery.VERSION);
        ObjectNode paths = doc.putObject("paths");
        ObjectNode components = doc.putObject("components").putObject("schemas");
        for (Discovery.Res r : groups.get().getOrDefault(gv, List.of())) {
            if (r.name().contains("/")) {
                continue;
            }
            String root = schemas.root(gv, r.kind());
            schemas.closure(root, components);
            ObjectNode patch = paths.putObject(objectPath(gv, r)).putObject("patch");
            patch.putObject("x-kubernetes-group-version-kind")
                    .put("group", gv.contains("/") ? gv.substring(0, gv.indexOf('/')) : "")
                    .put("version", gv.substring(gv.indexOf('/') + 1))
                    .put("kind", r.kind());
            patch.put("x-kubernetes-action", "patch");
            ArrayNode parameters = patch.putArray("parameters");
            for (String query : List.of("dryRun", "fieldManager", "fieldValidation", "force")) {
                parameters
                        .addObject()
                        .put("name", query)
                        .put("in", "query")
                        .putObject("schema")
                        .put("type", query.equals("force") ? "boolean" : "string");
            }
            patch.putObject("responses")
                    .putObject("200")
                    .put("description", "OK")
                    .putObject("content")
                    .putObject("application/json")
                    .putObject("schema")
                    .put("$ref", OpenApiSchemas.REF_PREFIX + root);
        }
        return JSON.writeValueAsString(doc);
    }

    private static String objectPath(String gv, Discovery.Res r) {
        return "/" + pathOf(gv) + (r.namespaced() ? "/namespaces/{namespace}/" : "/") + r.name() + "/{name}";
    }

    /** Swagger 2.0: the schemas of every served kind as definitions (no operations). */
    private String v2() {
        ObjectNode definitions = JSON.createObjectNode();
        for (Map.Entry<String, List<Discovery.Res>> e : groups.get().entrySet()) {
            for (Discovery.Res r : e.getValue()) {
                if (!r.name().contains("/")) {
                    schemas.closure(schemas.root(e.getKey(), r.kind()), definitions);
                }
            }
        }
        ObjectNode doc = JSON.createObjectNode().put("swagger", "2.0");
        doc.putObject("info").put("title", "hotsched embedded API server").put("version", Discovery.VERSION);
        doc.putObject("paths");
        doc.set("definitions", definitions);
        return JSON.writeValueAsString(doc).replace(OpenApiSchemas.REF_PREFIX, "#/definitions/");
    }

    private static String hash(String document) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-512").digest(document.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().withUpperCase().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
