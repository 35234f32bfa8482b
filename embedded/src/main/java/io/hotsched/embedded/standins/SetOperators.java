package io.hotsched.embedded.standins;

import java.util.List;

/** The set-based operators that label selectors and node selectors share. */
final class SetOperators {

    private SetOperators() {}

    /**
     * Whether a key's value ({@code null}: the key is absent) satisfies {@code operator} over
     * {@code values}; an operator that is not set-based matches nothing.
     */
    static boolean holds(String operator, String value, List<String> values) {
        List<String> set = values == null ? List.of() : values;
        return switch (operator) {
            case "In" -> value != null && set.contains(value);
            case "NotIn" -> value == null || !set.contains(value);
            case "Exists" -> value != null;
            case "DoesNotExist" -> value == null;
            default -> false;
        };
    }
}
