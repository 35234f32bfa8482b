package io.hotsched.embedded;

import io.fabric8.mockwebserver.http.MockResponse;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Field errors as kube-apiserver words them ({@code metadata.name: Invalid value: "Foo_bar": ...}),
 * and the 422 {@code Invalid} Status that carries them, one {@code details.causes} entry each.
 */
final class FieldErrors {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** One error: its cause type, the field, and what is wrong (without the field). */
    record Cause(String reason, String field, String body) {
        String message() {
            return field + ": " + body;
        }
    }

    /** A value printed as Go's {@code %#v} prints it, for the values that are not strings or numbers. */
    record GoValue(String text) {}

    private FieldErrors() {}

    static Cause required(String field, String detail) {
        return new Cause("FieldValueRequired", field, "Required value" + (detail.isEmpty() ? "" : ": " + detail));
    }

    static Cause invalid(String field, Object value, String detail) {
        return new Cause("FieldValueInvalid", field, "Invalid value: " + go(value) + ": " + detail);
    }

    static Cause duplicate(String field, Object value, String detail) {
        return new Cause(
                "FieldValueDuplicate",
                field,
                "Duplicate value: " + go(value) + (detail.isEmpty() ? "" : ": " + detail));
    }

    static Cause notSupported(String field, String value, List<String> supported) {
        StringBuilder b = new StringBuilder("Unsupported value: " + go(value) + ": supported values: ");
        for (int i = 0; i < supported.size(); i++) {
            b.append(i == 0 ? "" : ", ").append(go(supported.get(i)));
        }
        return new Cause("FieldValueNotSupported", field, b.toString());
    }

    static Cause forbidden(String field, String detail) {
        return new Cause("FieldValueForbidden", field, "Forbidden: " + detail);
    }

    static Cause tooLong(String field, int max) {
        return new Cause("FieldValueTooLong", field, "Too long: must have at most " + max + " bytes");
    }

    private static String go(Object value) {
        if (value instanceof String s) {
            return StatusJson.quote(s);
        }
        if (value instanceof GoValue g) {
            return g.text();
        }
        return String.valueOf(value);
    }

    /**
     * kube-apiserver's 422 for {@code causes}: {@code Pod "x" is invalid: <error>}, or the errors in
     * brackets when there are several ({@code Deployment.apps "x" ...} outside the core group).
     */
    static MockResponse invalidStatus(String group, String kind, String name, List<Cause> causes) {
        String qualified = group.isEmpty() ? kind : kind + "." + group;
        Set<String> messages = new LinkedHashSet<>();
        causes.forEach(c -> messages.add(c.message()));
        String all = messages.size() == 1 ? messages.iterator().next() : "[" + String.join(", ", messages) + "]";
        ObjectNode status = JSON.createObjectNode();
        status.put("kind", "Status");
        status.put("apiVersion", "v1");
        status.putObject("metadata");
        status.put("status", "Failure");
        status.put("message", qualified + " " + StatusJson.quote(name) + " is invalid: " + all);
        status.put("reason", "Invalid");
        ObjectNode details = status.putObject("details");
        details.put("name", name);
        if (!group.isEmpty()) {
            details.put("group", group);
        }
        details.put("kind", kind);
        ArrayNode list = details.putArray("causes");
        for (Cause c : causes) {
            ObjectNode o = list.addObject();
            o.put("reason", c.reason());
            o.put("message", c.body());
            o.put("field", c.field());
        }
        status.put("code", 422);
        return new MockResponse()
                .setResponseCode(422)
                .setHeader("Content-Type", "application/json")
                .setBody(JSON.writeValueAsString(status));
    }
}
