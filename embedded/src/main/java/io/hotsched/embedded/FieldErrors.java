package io.hotsched.embedded;

import io.fabric8.mockwebserver.http.MockResponse;
import java.util.List;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Field errors of an object kube-apiserver's validation refuses, and its 422: the message
 * {@code Kind.group "name" is invalid: field: detail} (several in brackets) and the details kubectl
 * prints from ({@code The Kind "name" is invalid: ...}, one cause per error).
 */
final class FieldErrors {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** One error: the field, its cause reason ({@code FieldValueInvalid} ...) and what is wrong. */
    record FieldError(String field, String reason, String detail) {

        static FieldError required(String field) {
            return new FieldError(field, "FieldValueRequired", "Required value");
        }

        /** {@code Invalid value: VALUE: why}; the value as JSON (strings quoted). */
        static FieldError invalid(String field, String value, String why) {
            return new FieldError(field, "FieldValueInvalid", "Invalid value: " + value + ": " + why);
        }

        static FieldError unsupported(String field, String value, String supported) {
            return new FieldError(
                    field,
                    "FieldValueNotSupported",
                    "Unsupported value: " + value + ": supported values: " + supported);
        }

        static FieldError duplicate(String field, String value) {
            return new FieldError(field, "FieldValueDuplicate", "Duplicate value: " + value);
        }

        @Override
        public String toString() {
            return field + ": " + detail;
        }
    }

    private FieldErrors() {}

    static MockResponse invalid(String kind, String group, String name, List<FieldError> errors) {
        String all = errors.size() == 1
                ? errors.get(0).toString()
                : "["
                        + String.join(
                                ", ", errors.stream().map(FieldError::toString).toList()) + "]";
        ObjectNode status = JSON.createObjectNode()
                .put("kind", "Status")
                .put("apiVersion", "v1")
                .put("status", "Failure")
                .put("message", (group.isEmpty() ? kind : kind + "." + group) + " \"" + name + "\" is invalid: " + all)
                .put("reason", "Invalid");
        status.putObject("metadata");
        ObjectNode details = status.putObject("details")
                .put("name", name)
                .put("group", group)
                .put("kind", kind);
        ArrayNode causes = details.putArray("causes");
        for (FieldError e : errors) {
            causes.addObject()
                    .put("reason", e.reason())
                    .put("message", e.detail())
                    .put("field", e.field());
        }
        status.put("code", 422);
        return new MockResponse()
                .setResponseCode(422)
                .setHeader("Content-Type", "application/json")
                .setBody(JSON.writeValueAsString(status));
    }
}
