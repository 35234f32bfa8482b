package io.hotsched.embedded;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * The JSONPath subset of {@code additionalPrinterColumns}: fields ({@code .status.phase},
 * {@code ['a.b']}), indexes ({@code [0]}), all items ({@code [*]}) and filters on a field
 * ({@code [?(@.type=="Ready")]}, {@code !=}); the results in document order.
 */
final class JsonPaths {

    private JsonPaths() {}

    /** The values {@code path} selects in {@code root}; empty when there are none (or the path is not read). */
    static List<JsonNode> find(JsonNode root, String path) {
        List<JsonNode> current = new ArrayList<>(List.of(root));
        String p = path.trim();
        if (p.startsWith("{") && p.endsWith("}")) {
            p = p.substring(1, p.length() - 1);
        }
        int i = p.startsWith("$") ? 1 : 0;
        while (i < p.length() && !current.isEmpty()) {
            char c = p.charAt(i);
            if (c == '.') {
                int end = i + 1;
                while (end < p.length() && p.charAt(end) != '.' && p.charAt(end) != '[') {
                    end++;
                }
                String field = p.substring(i + 1, end);
                current = field.isEmpty() ? current : children(current, field);
                i = end;
            } else if (c == '[') {
                int end = closing(p, i);
                if (end < 0) {
                    return List.of();
                }
                current = bracket(current, p.substring(i + 1, end).trim());
                i = end + 1;
            } else {
                return List.of();
            }
        }
        return current;
    }

    private static int closing(String p, int open) {
        char quote = 0;
        for (int j = open + 1; j < p.length(); j++) {
            char c = p.charAt(j);
            if (quote != 0) {
                quote = c == quote ? 0 : quote;
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == ']') {
                return j;
            }
        }
        return -1;
    }

    private static List<JsonNode> children(List<JsonNode> nodes, String field) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode n : nodes) {
            if (n.isObject() && n.has(field)) {
                out.add(n.get(field));
            }
        }
        return out;
    }

    private static List<JsonNode> bracket(List<JsonNode> nodes, String inside) {
        if (inside.startsWith("'") || inside.startsWith("\"")) {
            return children(nodes, inside.substring(1, inside.length() - 1));
        }
        List<JsonNode> out = new ArrayList<>();
        if (inside.equals("*")) {
            for (JsonNode n : nodes) {
                n.forEach(out::add);
            }
            return out;
        }
        if (inside.startsWith("?(") && inside.endsWith(")")) {
            return filtered(nodes, inside.substring(2, inside.length() - 1).trim());
        }
        try {
            int index = Integer.parseInt(inside);
            for (JsonNode n : nodes) {
                int at = index < 0 ? n.size() + index : index;
                if (n.isArray() && at >= 0 && at < n.size()) {
                    out.add(n.get(at));
                }
            }
            return out;
        } catch (NumberFormatException e) {
            return List.of();
        }
    }

    /** The items of the arrays in {@code nodes} for which {@code @.field OP literal} holds. */
    private static List<JsonNode> filtered(List<JsonNode> nodes, String condition) {
        boolean negated = condition.contains("!=");
        String[] sides = condition.split(negated ? "!=" : "==", 2);
        if (sides.length != 2 || !sides[0].trim().startsWith("@")) {
            return List.of();
        }
        String field = sides[0].trim().substring(1);
        String literal = sides[1].trim();
        if (literal.length() >= 2 && (literal.startsWith("'") || literal.startsWith("\""))) {
            literal = literal.substring(1, literal.length() - 1);
        }
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode n : nodes) {
            for (JsonNode item : n.isArray() ? n : List.of(n)) {
                List<JsonNode> value = find(item, field);
                boolean equal = !value.isEmpty() && value.get(0).asText().equals(literal);
                if (equal != negated) {
                    out.add(item);
                }
            }
        }
        return out;
    }
}
