package io.hotsched.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import java.util.List;
import java.util.Map;

/**
 * Whether a node is one a slice's or an allocation's node selector names: any term whose label
 * requirements and {@code metadata.name} field requirements all hold (an empty term matches
 * nothing, as Kubernetes' node selectors have it).
 */
final class NodeMatch {

    private NodeMatch() {}

    static boolean matches(NodeSelector selector, Node node) {
        if (selector == null || selector.getNodeSelectorTerms() == null) {
            return false;
        }
        Map<String, String> labels = node.getMetadata().getLabels() == null
                ? Map.of()
                : node.getMetadata().getLabels();
        for (NodeSelectorTerm t : selector.getNodeSelectorTerms()) {
            if (term(t, labels, node.getMetadata().getName())) {
                return true;
            }
        }
        return false;
    }

    private static boolean term(NodeSelectorTerm t, Map<String, String> labels, String name) {
        List<NodeSelectorRequirement> exprs = t.getMatchExpressions() == null ? List.of() : t.getMatchExpressions();
        List<NodeSelectorRequirement> fields = t.getMatchFields() == null ? List.of() : t.getMatchFields();
        if (exprs.isEmpty() && fields.isEmpty()) {
            return false;
        }
        for (NodeSelectorRequirement r : exprs) {
            if (!holds(r, labels.get(r.getKey()))) {
                return false;
            }
        }
        for (NodeSelectorRequirement r : fields) {
            if (!"metadata.name".equals(r.getKey()) || !holds(r, name)) {
                return false;
            }
        }
        return true;
    }

    private static boolean holds(NodeSelectorRequirement r, String value) {
        List<String> values = r.getValues() == null ? List.of() : r.getValues();
        return switch (r.getOperator()) {
            case "In" -> value != null && values.contains(value);
            case "NotIn" -> value == null || !values.contains(value);
            case "Exists" -> value != null;
            case "DoesNotExist" -> value == null;
            case "Gt", "Lt" -> compares(r.getOperator(), value, values);
            default -> false;
        };
    }

    private static boolean compares(String op, String value, List<String> values) {
        if (value == null || values.size() != 1) {
            return false;
        }
        try {
            long have = Long.parseLong(value);
            long want = Long.parseLong(values.get(0));
            return op.equals("Gt") ? have > want : have < want;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
