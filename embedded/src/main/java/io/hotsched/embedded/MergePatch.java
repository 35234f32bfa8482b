package io.hotsched.embedded;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * JSON merge patch (RFC 7386): objects merge field by field, {@code null} removes a field, anything
 * else (arrays too) replaces. The store's own merge keeps nulls as values, so {@code kubectl annotate
 * a-} would leave {@code a: null} behind.
 */
final class MergePatch {

    private MergePatch() {}

    /** {@code target} with {@code patch} applied; neither is changed. */
    static JsonNode apply(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            return patch.deepCopy();
        }
        ObjectNode out = target != null && target.isObject()
                ? ((ObjectNode) target).deepCopy()
                : tools.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        for (String field : patch.propertyNames()) {
            JsonNode p = patch.get(field);
            if (p.isNull()) {
                out.remove(field);
            } else {
                out.set(field, apply(out.get(field), p));
            }
        }
        return out;
    }
}
