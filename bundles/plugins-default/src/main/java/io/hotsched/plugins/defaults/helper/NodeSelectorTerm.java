package io.hotsched.plugins.defaults.helper;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A compiled node selector term: its {@code matchExpressions} on labels and {@code matchFields}
 * (only {@code metadata.name}), ANDed. An empty term, or one with a requirement that does not
 * parse (an invalid key or value, a Gt/Lt value that is not one integer), matches no node, as
 * upstream's lazy-error selector does; {@link #error()} says why.
 */
public final class NodeSelectorTerm {

    private final List<NodeSelectorRequirement> expressions;
    private final List<NodeSelectorRequirement> fields;
    private final String error;

    private NodeSelectorTerm(
            List<NodeSelectorRequirement> expressions, List<NodeSelectorRequirement> fields, String error) {
        this.expressions = expressions;
        this.fields = fields;
        this.error = error;
    }

    public static NodeSelectorTerm of(io.fabric8.kubernetes.api.model.NodeSelectorTerm t) {
        List<NodeSelectorRequirement> exprs =
                t.getMatchExpressions() == null ? List.of() : List.copyOf(t.getMatchExpressions());
        List<NodeSelectorRequirement> fields = t.getMatchFields() == null ? List.of() : List.copyOf(t.getMatchFields());
        String error = null;
        for (int i = 0; i < exprs.size() && error == null; i++) {
            String e = check(exprs.get(i), false);
            if (e != null) {
                error = "matchExpressions[" + i + "]." + e;
            }
        }
        for (int i = 0; i < fields.size() && error == null; i++) {
            String e = check(fields.get(i), true);
            if (e != null) {
                error = "matchFields[" + i + "]." + e;
            }
        }
        return new NodeSelectorTerm(exprs, fields, error);
    }

    /** Why the term matches nothing because it does not parse; null when it parses. */
    public String error() {
        return error;
    }

    public List<NodeSelectorRequirement> fields() {
        return fields;
    }

    public boolean matches(Node node) {
        if (error != null || expressions.isEmpty() && fields.isEmpty()) {
            return false;
        }
        Map<String, String> labels =
                node.getMetadata() == null || node.getMetadata().getLabels() == null
                        ? Map.of()
                        : node.getMetadata().getLabels();
        for (NodeSelectorRequirement r : expressions) {
            if (!matches(r, labels.get(r.getKey()), labels.containsKey(r.getKey()))) {
                return false;
            }
        }
        String name = node.getMetadata() == null ? null : node.getMetadata().getName();
        for (NodeSelectorRequirement r : fields) {
            if (!matches(r, name, name != null)) {
                return false;
            }
        }
        return true;
    }

    private static boolean matches(NodeSelectorRequirement r, String value, boolean present) {
        List<String> values = r.getValues() == null ? List.of() : r.getValues();
        return switch (r.getOperator()) {
            case "In" -> present && values.contains(value);
            case "NotIn" -> !present || !values.contains(value);
            case "Exists" -> present;
            case "DoesNotExist" -> !present;
            case "Gt", "Lt" -> {
                if (!present) {
                    yield false;
                }
                try {
                    long have = Long.parseLong(value);
                    long want = Long.parseLong(values.get(0));
                    yield "Gt".equals(r.getOperator()) ? have > want : have < want;
                } catch (NumberFormatException e) {
                    yield false;
                }
            }
            default -> false;
        };
    }

    private static String check(NodeSelectorRequirement r, boolean field) {
        String key = r.getKey() == null ? "" : r.getKey();
        List<String> values = r.getValues() == null ? List.of() : r.getValues();
        if (field) {
            if (!"metadata.name".equals(key)) {
                return "key: Invalid value: \"" + key + "\": not a valid field selector key";
            }
            if (!Set.of("In", "NotIn").contains(r.getOperator())
                    || values.size() != 1 && "NotIn".equals(r.getOperator())) {
                return "operator: Invalid value: \"" + r.getOperator() + "\": not a valid selector operator";
            }
            return null;
        }
        String keyError = LabelValidation.keyError(key);
        if (keyError != null) {
            return "key: Invalid value: \"" + key + "\": " + keyError;
        }
        String op = r.getOperator() == null ? "" : r.getOperator();
        switch (op) {
            case "In", "NotIn" -> {
                if (values.isEmpty()) {
                    return "values: Required value: must be specified when `operator` is 'In' or 'NotIn'";
                }
            }
            case "Exists", "DoesNotExist" -> {
                if (!values.isEmpty()) {
                    return "values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'";
                }
            }
            case "Gt", "Lt" -> {
                if (values.size() != 1) {
                    return "values: Required value: must be specified single value when `operator` is 'Lt' or 'Gt'";
                }
                try {
                    Long.parseLong(values.get(0));
                } catch (NumberFormatException e) {
                    return "values[0]: Invalid value: \"" + values.get(0) + "\": must be an integer";
                }
                return null;
            }
            default -> {
                return "operator: Invalid value: \"" + op + "\": not a valid selector operator";
            }
        }
        for (int i = 0; i < values.size(); i++) {
            String ve = LabelValidation.valueError(values.get(i));
            if (ve != null) {
                return "values[" + i + "]: Invalid value: \"" + values.get(i) + "\": " + ve;
            }
        }
        return null;
    }

    /** The terms of a selector, compiled; empty when the selector is null. */
    public static List<NodeSelectorTerm> all(NodeSelector selector) {
        List<NodeSelectorTerm> out = new ArrayList<>();
        if (selector != null && selector.getNodeSelectorTerms() != null) {
            for (io.fabric8.kubernetes.api.model.NodeSelectorTerm t : selector.getNodeSelectorTerms()) {
                out.add(of(t));
            }
        }
        return out;
    }
}
