package io.hotsched.embedded;

import io.hotsched.embedded.FieldErrors.Cause;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a CustomResourceDefinition's {@code openAPIV3Schema} does to a custom resource on its way
 * to the store, in kube-apiserver's order: fields the schema does not have are pruned (unless
 * {@code x-kubernetes-preserve-unknown-fields}), as are nulls of fields that are not
 * {@code nullable}; {@code default}s fill missing fields; then the object is validated (types,
 * {@code x-kubernetes-int-or-string}, {@code required}, {@code enum}, bounds, lengths, sizes,
 * {@code pattern}), each error worded as kube-apiserver words it.
 */
final class StructuralSchema {

    /** Kept at the root of every object whatever its schema says (metadata is ObjectMeta's). */
    private static final Set<String> ROOT = Set.of("apiVersion", "kind", "metadata");

    private StructuralSchema() {}

    /** Prunes and defaults {@code object} in place; returns its validation errors. */
    static List<Cause> admit(ObjectNode object, JsonNode schema) {
        prune(object, schema, true);
        List<Cause> errors = new ArrayList<>();
        validate(object, schema, "", errors, true);
        return errors;
    }

    private static boolean preserves(JsonNode schema) {
        return schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
    }

    private static void prune(JsonNode value, JsonNode schema, boolean root) {
        if (schema == null || !schema.isObject()) {
            return;
        }
        if (value instanceof ArrayNode array && schema.path("items").isObject()) {
            array.forEach(item -> prune(item, schema.get("items"), false));
            return;
        }
        if (!(value instanceof ObjectNode object)) {
            return;
        }
        JsonNode properties = schema.path("properties");
        JsonNode additional = schema.path("additionalProperties");
        boolean keep = root || schema.path("x-kubernetes-embedded-resource").asBoolean(false);
        for (String field : new ArrayList<>(object.propertyNames())) {
            JsonNode child = object.get(field);
            JsonNode childSchema =
                    properties.has(field) ? properties.get(field) : additional.isObject() ? additional : null;
            if (keep && ROOT.contains(field)) {
                continue;
            }
            if (childSchema == null) {
                if (!preserves(schema) && !additional.asBoolean(false)) {
                    object.remove(field);
                }
            } else if (child.isNull() && !childSchema.path("nullable").asBoolean(false)) {
                object.remove(field);
            } else {
                prune(child, childSchema, false);
            }
        }
        for (Map.Entry<String, JsonNode> p : properties.properties()) {
            if (!object.has(p.getKey()) && p.getValue().has("default")) {
                object.set(p.getKey(), p.getValue().get("default").deepCopy());
                prune(object.get(p.getKey()), p.getValue(), false);
            }
        }
    }

    private static void validate(JsonNode value, JsonNode schema, String path, List<Cause> errors, boolean root) {
        if (schema == null || !schema.isObject()) {
            return;
        }
        String field = path.isEmpty() ? "<root>" : path;
        String type = schema.path("type").asText("");
        String actual = typeOf(value);
        boolean typed = type.isEmpty()
                || type.equals(actual)
                || (type.equals("number") && actual.equals("integer"))
                || (schema.path("x-kubernetes-int-or-string").asBoolean(false)
                        && (actual.equals("integer") || actual.equals("string")))
                || (actual.equals("null") && schema.path("nullable").asBoolean(false));
        if (!typed) {
            errors.add(FieldErrors.invalid(
                    field,
                    new FieldErrors.GoValue(StatusJson.quote(actual)),
                    field + " in body must be of type " + type + ": \"" + actual + "\""));
        }
        enumeration(value, schema, field, errors);
        if (value.isNumber()) {
            bounds(value, schema, field, errors);
        }
        if (value.isString()) {
            text(value.asText(), schema, field, errors);
        }
        if (value instanceof ArrayNode array) {
            size(array, schema, field, errors);
            for (int i = 0; i < array.size(); i++) {
                validate(array.get(i), schema.get("items"), path + "[" + i + "]", errors, false);
            }
        }
        if (!(value instanceof ObjectNode object) || !typed) {
            return;
        }
        for (JsonNode required : schema.path("required")) {
            if (!object.has(required.asText())) {
                errors.add(FieldErrors.required(join(path, required.asText()), ""));
            }
        }
        JsonNode properties = schema.path("properties");
        JsonNode additional = schema.path("additionalProperties");
        for (Map.Entry<String, JsonNode> e : object.properties()) {
            if (root && ROOT.contains(e.getKey())) {
                continue;
            }
            JsonNode childSchema =
                    properties.has(e.getKey()) ? properties.get(e.getKey()) : additional.isObject() ? additional : null;
            validate(e.getValue(), childSchema, join(path, e.getKey()), errors, false);
        }
    }

    private static void enumeration(JsonNode value, JsonNode schema, String field, List<Cause> errors) {
        JsonNode values = schema.path("enum");
        if (!values.isArray() || values.isEmpty()) {
            return;
        }
        for (JsonNode allowed : values) {
            if (allowed.equals(value)) {
                return;
            }
        }
        List<String> shown = new ArrayList<>();
        values.forEach(v -> shown.add(shown(v)));
        errors.add(new Cause(
                "FieldValueNotSupported",
                field,
                "Unsupported value: " + shown(value) + ": supported values: " + String.join(", ", shown)));
    }

    private static void bounds(JsonNode value, JsonNode schema, String field, List<Cause> errors) {
        double v = value.asDouble();
        JsonNode min = schema.path("minimum");
        if (min.isNumber()) {
            boolean exclusive = schema.path("exclusiveMinimum").asBoolean(false);
            if (exclusive ? v <= min.asDouble() : v < min.asDouble()) {
                errors.add(FieldErrors.invalid(
                        field,
                        new FieldErrors.GoValue(value.toString()),
                        field + " in body should be greater than " + (exclusive ? "" : "or equal to ") + number(min)));
            }
        }
        JsonNode max = schema.path("maximum");
        if (max.isNumber()) {
            boolean exclusive = schema.path("exclusiveMaximum").asBoolean(false);
            if (exclusive ? v >= max.asDouble() : v > max.asDouble()) {
                errors.add(FieldErrors.invalid(
                        field,
                        new FieldErrors.GoValue(value.toString()),
                        field + " in body should be less than " + (exclusive ? "" : "or equal to ") + number(max)));
            }
        }
    }

    private static void text(String s, JsonNode schema, String field, List<Cause> errors) {
        String quoted = StatusJson.quote(s);
        limit(errors, field, quoted, s.length(), schema.path("maxLength"), true, "be at most %d chars long");
        limit(errors, field, quoted, s.length(), schema.path("minLength"), false, "be at least %d chars long");
        String pattern = schema.path("pattern").asText("");
        if (!pattern.isEmpty() && !matches(pattern, s)) {
            errors.add(FieldErrors.invalid(
                    field, new FieldErrors.GoValue(quoted), field + " in body should match '" + pattern + "'"));
        }
    }

    private static void size(ArrayNode array, JsonNode schema, String field, List<Cause> errors) {
        String n = String.valueOf(array.size());
        limit(errors, field, n, array.size(), schema.path("maxItems"), true, "have at most %d items");
        limit(errors, field, n, array.size(), schema.path("minItems"), false, "have at least %d items");
    }

    /** An error when {@code actual} is above ({@code most}) or below {@code limit}, when there is one. */
    private static void limit(
            List<Cause> errors, String field, String value, int actual, JsonNode limit, boolean most, String should) {
        if (limit.isNumber() && (most ? actual > limit.asInt() : actual < limit.asInt())) {
            errors.add(FieldErrors.invalid(
                    field,
                    new FieldErrors.GoValue(value),
                    field + " in body should " + should.formatted(limit.asInt())));
        }
    }

    private static boolean matches(String pattern, String s) {
        try {
            return Pattern.compile(pattern).matcher(s).find();
        } catch (PatternSyntaxException e) {
            // a pattern Java does not read (RE2 and Java differ at the edges) does not refuse anything
            return true;
        }
    }

    /** The JSON type of a value, as the messages name it. */
    private static String typeOf(JsonNode v) {
        if (v.isObject()) {
            return "object";
        }
        if (v.isArray()) {
            return "array";
        }
        if (v.isString()) {
            return "string";
        }
        if (v.isBoolean()) {
            return "boolean";
        }
        if (v.isIntegralNumber() || (v.isNumber() && v.asDouble() == Math.rint(v.asDouble()))) {
            return "integer";
        }
        return v.isNumber() ? "number" : "null";
    }

    private static String shown(JsonNode v) {
        return v.isString() ? StatusJson.quote(v.asText()) : v.toString();
    }

    private static String number(JsonNode n) {
        double d = n.asDouble();
        return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
    }

    private static String join(String path, String field) {
        return path.isEmpty() ? field : path + "." + field;
    }
}
