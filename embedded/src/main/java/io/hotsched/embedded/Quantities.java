package io.hotsched.embedded;

import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * Whether a JSON value decodes as a {@code resource.Quantity}, as kube-apiserver's decoder
 * judges it: one that does not fails the whole object's decoding with a 400, before any
 * validation, in words that name neither the field nor the value.
 */
final class Quantities {

    /** What kube-apiserver's quantity parser takes: a decimal number, then a binary, decimal or exponent suffix. */
    private static final Pattern QUANTITY =
            Pattern.compile("[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?[0-9]+)?");

    static final String MESSAGE =
            "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

    private Quantities() {}

    static boolean decodes(JsonNode v) {
        // a number in place of a string decodes too, as kube-apiserver's does
        String text = v.isString() || v.isNumber() ? v.asText("") : "";
        return QUANTITY.matcher(text).matches();
    }

    /** Whether every value of the map {@code list} (absent: none) decodes. */
    static boolean allDecode(JsonNode list) {
        for (var q : list.properties()) {
            if (!decodes(q.getValue())) {
                return false;
            }
        }
        return true;
    }
}
