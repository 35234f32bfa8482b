package io.hotsched.embedded;

import io.fabric8.mockwebserver.http.MockResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The {@code fieldValidation} query parameter of creates, updates and patches, as kube-apiserver
 * answers it: {@code Strict} refuses a body with fields its kind does not have (400, with
 * kube-apiserver's {@code strict decoding error: unknown field "spec.foo"}), {@code Warn} serves it
 * with a {@code Warning} header per field. Without the parameter nothing is checked (kube-apiserver
 * warns then), so the clients that never ask, the scheduler and the benchmark, pay nothing.
 */
final class FieldValidation {

    private final OpenApiSchemas schemas;

    FieldValidation(OpenApiSchemas schemas) {
        this.schemas = schemas;
    }

    /** {@code Strict}, {@code Warn}, or null (not asked for, or {@code Ignore}). */
    static String directive(String path) {
        int q = path.indexOf('?');
        if (q < 0) {
            return null;
        }
        for (String pair : path.substring(q + 1).split("&")) {
            if (pair.startsWith("fieldValidation=")) {
                String v = pair.substring("fieldValidation=".length());
                return v.equals("Strict") || v.equals("Warn") ? v : null;
            }
        }
        return null;
    }

    /**
     * The unknown fields of {@code body}, an object or a patch of one, as kube-apiserver names them
     * ({@code spec.containers[0].foo}), in the order the body has them. Keys of a strategic merge
     * patch's directives ({@code $patch}, {@code $setElementOrder/...}) are not fields.
     */
    List<String> unknownFields(String groupVersion, String kind, JsonNode body) {
        List<String> unknown = new ArrayList<>();
        walk(body, schemas.schema(schemas.root(groupVersion, kind)), "", unknown);
        return unknown;
    }

    private void walk(JsonNode value, JsonNode schema, String path, List<String> unknown) {
        schema = schema == null ? null : schemas.resolve(schema);
        if (schema == null
                || value == null
                || schema.path("x-kubernetes-preserve-unknown-fields").asBoolean()) {
            return;
        }
        if (value.isArray() && schema.has("items")) {
            int i = 0;
            for (JsonNode item : value) {
                walk(item, schema.get("items"), path + "[" + i++ + "]", unknown);
            }
            return;
        }
        if (!value.isObject()) {
            return;
        }
        JsonNode properties = schema.get("properties");
        JsonNode additional = schema.get("additionalProperties");
        for (Map.Entry<String, JsonNode> e : value.properties()) {
            String name = e.getKey();
            String at = path.isEmpty() ? name : path + "." + name;
            if (name.startsWith("$")) {
                continue;
            }
            if (properties != null && properties.has(name)) {
                walk(e.getValue(), properties.get(name), at, unknown);
            } else if (additional != null) {
                walk(e.getValue(), additional, at, unknown);
            } else {
                unknown.add(at);
            }
        }
    }

    /** The 400 kube-apiserver gives a create or update with unknown fields under {@code Strict}. */
    static MockResponse refusedObject(String groupVersion, String kind, List<String> unknown) {
        String version = groupVersion.substring(groupVersion.indexOf('/') + 1);
        return StatusJson.failure(
                400,
                "BadRequest",
                kind + " in version \"" + version + "\" cannot be handled as a " + kind + ": " + strictError(unknown));
    }

    /** The 400 for a patch with unknown fields under {@code Strict}. */
    static MockResponse refusedPatch(List<String> unknown) {
        return StatusJson.failure(400, "BadRequest", strictError(unknown));
    }

    private static String strictError(List<String> unknown) {
        StringBuilder b = new StringBuilder("strict decoding error: ");
        for (int i = 0; i < unknown.size(); i++) {
            b.append(i == 0 ? "" : ", ")
                    .append("unknown field \"")
                    .append(unknown.get(i))
                    .append('"');
        }
        return b.toString();
    }

    /** {@code answer} with one {@code Warning} header per unknown field, as under {@code Warn}. */
    static MockResponse warned(MockResponse answer, List<String> unknown) {
        for (String field : unknown) {
            answer.addHeader("Warning", "299 - " + StatusJson.quote("unknown field \"" + field + "\""));
        }
        return answer;
    }
}
