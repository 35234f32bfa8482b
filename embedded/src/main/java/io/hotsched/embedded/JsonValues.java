package io.hotsched.embedded;

import java.util.HashSet;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/** Equality of JSON values as kube-apiserver decodes them: numbers by value, and (semantic) absent as zero. */
final class JsonValues {

    private JsonValues() {}

    /** Equal values, numbers compared by value ({@code 30} and {@code 30.0} are one). */
    static boolean same(JsonNode a, JsonNode b) {
        return equal(a, b, false);
    }

    /**
     * Equal once decoded into Go structs: a field absent, null or at its zero value ({@code ""},
     * {@code 0}, {@code false}, empty list or object) is one value.
     */
    static boolean semanticallySame(JsonNode a, JsonNode b) {
        return equal(a, b, true);
    }

    private static boolean equal(JsonNode a, JsonNode b, boolean semantic) {
        if (semantic && (isZero(a) || isZero(b))) {
            return isZero(a) && isZero(b);
        }
        if (a == null || b == null) {
            return a == b;
        }
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue()) == 0;
        }
        if (a.isObject() && b.isObject()) {
            if (!semantic && a.size() != b.size()) {
                return false;
            }
            Set<String> fields = new HashSet<>(a.propertyNames());
            fields.addAll(b.propertyNames());
            for (String f : fields) {
                if (!equal(a.get(f), b.get(f), semantic)) {
                    return false;
                }
            }
            return true;
        }
        if (a.isArray() && b.isArray()) {
            if (a.size() != b.size()) {
                return false;
            }
            for (int i = 0; i < a.size(); i++) {
                if (!equal(a.get(i), b.get(i), semantic)) {
                    return false;
                }
            }
            return true;
        }
        return a.equals(b);
    }

    static boolean isZero(JsonNode v) {
        if (v == null || v.isNull() || v.isMissingNode()) {
            return true;
        }
        if (v.isContainer()) {
            return v.isEmpty();
        }
        if (v.isNumber()) {
            return v.decimalValue().signum() == 0;
        }
        if (v.isBoolean()) {
            return !v.booleanValue();
        }
        return v.isString() && v.stringValue().isEmpty();
    }
}
