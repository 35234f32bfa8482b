package io.hotsched.embedded;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * Pod field selectors the stock mock server does not answer ({@code spec.nodeName},
 * {@code status.phase}, {@code spec.schedulerName}, with {@code =}, {@code ==}, {@code !=}, and
 * empty values): taken out of a list request's query and applied to the answer.
 */
final class FieldSelector {

    record Term(String field, boolean equal, String value) {
        boolean matches(JsonNode pod) {
            JsonNode n = pod;
            for (String part : field.split("\\.")) {
                n = n.path(part);
            }
            return matches(n.isMissingNode() || n.isNull() ? "" : n.asText());
        }

        /** Whether a field whose value is {@code actual} ("" when absent) meets the term. */
        boolean matches(String actual) {
            return equal == actual.equals(value);
        }
    }

    static final List<String> FIELDS = List.of("spec.nodeName", "status.phase", "spec.schedulerName");

    /** The path with our terms removed, and the terms; null when the request has none of ours. */
    record Split(String path, List<Term> terms) {}

    private FieldSelector() {}

    static Split split(String path) {
        int q = path.indexOf('?');
        if (q < 0 || !path.contains("fieldSelector=")) {
            return null;
        }
        List<Term> ours = new ArrayList<>();
        List<String> params = new ArrayList<>();
        for (String param : path.substring(q + 1).split("&")) {
            if (!param.startsWith("fieldSelector=")) {
                params.add(param);
                continue;
            }
            String selector = URLDecoder.decode(param.substring("fieldSelector=".length()), StandardCharsets.UTF_8);
            List<String> rest = new ArrayList<>();
            for (String term : selector.split(",")) {
                Term t = parse(term.trim());
                if (t != null && FIELDS.contains(t.field())) {
                    ours.add(t);
                } else if (!term.isBlank()) {
                    rest.add(term.trim());
                }
            }
            if (!rest.isEmpty()) {
                params.add("fieldSelector=" + URLEncoder.encode(String.join(",", rest), StandardCharsets.UTF_8));
            }
        }
        if (ours.isEmpty()) {
            return null;
        }
        return new Split(path.substring(0, q) + (params.isEmpty() ? "" : "?" + String.join("&", params)), ours);
    }

    /** Every term of a selector ({@code a=b,c!=d}), whatever its field; null when one cannot be read. */
    static List<Term> terms(String selector) {
        List<Term> out = new ArrayList<>();
        for (String term : selector.split(",")) {
            if (term.isBlank()) {
                continue;
            }
            Term t = parse(term.trim());
            if (t == null) {
                return null;
            }
            out.add(t);
        }
        return out;
    }

    private static Term parse(String term) {
        int ne = term.indexOf("!=");
        if (ne > 0) {
            return new Term(term.substring(0, ne), false, term.substring(ne + 2));
        }
        int ee = term.indexOf("==");
        if (ee > 0) {
            return new Term(term.substring(0, ee), true, term.substring(ee + 2));
        }
        int e = term.indexOf('=');
        return e > 0 ? new Term(term.substring(0, e), true, term.substring(e + 1)) : null;
    }
}
