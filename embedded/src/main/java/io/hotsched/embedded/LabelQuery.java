package io.hotsched.embedded;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Label selectors with set-based terms ({@code app in (a,b)}, {@code tier notin (x)},
 * {@code !canary}, {@code env}), which the stock mock server ignores and so answers with every
 * object. A list request whose selector has one is answered here: the selector is taken out of the
 * query and the whole selector applied to the items.
 */
final class LabelQuery {

    /** One requirement on an object's labels. */
    record Term(String key, String op, Set<String> values) {
        boolean matches(JsonNode labels) {
            JsonNode v = labels.path(key);
            return matches(v.isMissingNode() || v.isNull() ? null : v.asText());
        }

        /** Whether an object whose label {@code key} is {@code value} (null: no such label) meets the term. */
        boolean matches(String value) {
            boolean has = value != null;
            return switch (op) {
                case "exists" -> has;
                case "!" -> !has;
                case "=", "in" -> has && values.contains(value);
                case "!=", "notin" -> !has || !values.contains(value);
                default -> false;
            };
        }
    }

    /** The path without the label selector, and the selector's terms. */
    record Split(String path, List<Term> terms) {
        boolean matches(JsonNode item) {
            JsonNode labels = item.path("metadata").path("labels");
            for (Term t : terms) {
                if (!t.matches(labels)) {
                    return false;
                }
            }
            return true;
        }
    }

    private LabelQuery() {}

    /** The split of a request with a set-based label selector; null for one the stock server answers right. */
    static Split split(String path) {
        int q = path.indexOf('?');
        if (q < 0 || !path.contains("labelSelector=")) {
            return null;
        }
        List<String> params = new ArrayList<>();
        List<Term> terms = null;
        for (String param : path.substring(q + 1).split("&")) {
            if (param.startsWith("labelSelector=")) {
                String selector = URLDecoder.decode(param.substring("labelSelector=".length()), StandardCharsets.UTF_8);
                List<Term> parsed = parse(selector);
                if (parsed != null && parsed.stream().anyMatch(t -> !t.op().equals("=") && !t.op().equals("!="))) {
                    terms = parsed;
                    continue;
                }
            }
            params.add(param);
        }
        if (terms == null) {
            return null;
        }
        return new Split(path.substring(0, q) + (params.isEmpty() ? "" : "?" + String.join("&", params)), terms);
    }

    /** The terms of a selector; null when it cannot be read (the stock server then decides). */
    static List<Term> parse(String selector) {
        List<Term> out = new ArrayList<>();
        int depth = 0;
        StringBuilder cur = new StringBuilder();
        List<String> parts = new ArrayList<>();
        for (char c : selector.toCharArray()) {
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            }
            if (c == ',' && depth == 0) {
                parts.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        parts.add(cur.toString());
        for (String raw : parts) {
            String p = raw.trim();
            if (p.isEmpty()) {
                continue;
            }
            Term t = term(p);
            if (t == null) {
                return null;
            }
            out.add(t);
        }
        return out;
    }

    private static Term term(String p) {
        String[] words = p.split("\\s+", 2);
        if (words.length == 2) {
            String rest = words[1].trim();
            for (String op : List.of("notin", "in")) {
                if (rest.startsWith(op) && rest.substring(op.length()).trim().startsWith("(") && rest.endsWith(")")) {
                    String inner = rest.substring(rest.indexOf('(') + 1, rest.length() - 1);
                    Set<String> values = new java.util.HashSet<>();
                    for (String v : inner.split(",")) {
                        values.add(v.trim());
                    }
                    return new Term(words[0], op, values);
                }
            }
        }
        if (p.startsWith("!")) {
            return new Term(p.substring(1).trim(), "!", Set.of());
        }
        int ne = p.indexOf("!=");
        if (ne > 0) {
            return new Term(
                    p.substring(0, ne).trim(), "!=", Set.of(p.substring(ne + 2).trim()));
        }
        int eq = p.indexOf('=');
        if (eq > 0) {
            String value = p.substring(p.startsWith("==", eq) ? eq + 2 : eq + 1).trim();
            return new Term(p.substring(0, eq).trim(), "=", Set.of(value));
        }
        return p.matches("[A-Za-z0-9./_-]+") ? new Term(p, "exists", Set.of()) : null;
    }
}
