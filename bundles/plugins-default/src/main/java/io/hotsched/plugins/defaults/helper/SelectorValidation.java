package io.hotsched.plugins.defaults.helper;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import java.util.List;
import java.util.Map;

/** Upstream's checks of a label selector before it is used, with messages that name the part. */
public final class SelectorValidation {

    private SelectorValidation() {}

    /** Null when {@code s} (null: selects nothing) can be used, else what is wrong. */
    public static String error(LabelSelector s) {
        if (s == null) {
            return null;
        }
        if (s.getMatchLabels() != null) {
            for (Map.Entry<String, String> e : s.getMatchLabels().entrySet()) {
                String err = labelError(e.getKey(), e.getValue(), "matchLabels");
                if (err != null) {
                    return err;
                }
            }
        }
        List<LabelSelectorRequirement> exprs = s.getMatchExpressions() == null ? List.of() : s.getMatchExpressions();
        for (LabelSelectorRequirement r : exprs) {
            String key = String.valueOf(r.getKey());
            List<String> values = r.getValues() == null ? List.of() : r.getValues();
            String op = String.valueOf(r.getOperator());
            switch (op) {
                case "In", "NotIn" -> {
                    if (values.isEmpty()) {
                        return "values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty";
                    }
                }
                case "Exists", "DoesNotExist" -> {
                    if (!values.isEmpty()) {
                        return "values: Invalid value: " + values
                                + ": values set must be empty for exists and does not exist";
                    }
                }
                default -> {
                    return "operator: Unsupported value: \"" + op
                            + "\": supported values: \"In\", \"NotIn\", \"Exists\", \"DoesNotExist\"";
                }
            }
            for (int i = 0; i < values.size(); i++) {
                String err = labelError(key, values.get(i), "values[" + i + "]");
                if (err != null) {
                    return err;
                }
            }
        }
        return null;
    }

    private static String labelError(String key, String value, String at) {
        String err = LabelValidation.keyError(key);
        if (err != null) {
            return "key: Invalid value: \"" + key + "\": " + err;
        }
        err = LabelValidation.valueError(value);
        return err == null ? null : at + "[" + key + "]: Invalid value: \"" + value + "\": " + err;
    }
}
