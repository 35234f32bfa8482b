package io.hotsched.embedded;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * Field selectors the stock mock server does not answer, with {@code =}, {@code ==}, {@code !=},
 * and empty values: pods' {@code spec.nodeName}, {@code status.phase} and
 * {@code spec.schedulerName}; events' fields kube-apiserver selects by (what {@code kubectl
 * describe} asks for: {@code involvedObject.*} of core events, {@code regarding.*} of
 * events.k8s.io ones, reason, type, source). Taken out of a list request's query and applied to
 * the answer.
 */
final class FieldSelector {

    record Term(String field, boolean equal, String value) {
        boolean matches(JsonNode object) {
            JsonNode n = object;
            // core events select their source by its component
            String at = field.equals("source") ? "source.component" : field;
            for (String part : at.split("\\.")) {
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

    private static final List<String> OBJECT_FIELDS =
            List.of("kind", "namespace", "name", "uid", "apiVersion", "resourceVersion", "fieldPath");

    /** The fields of core v1 events kube-apiserver selects by. */
    static final List<String> CORE_EVENT_FIELDS = eventFields("involvedObject", "reportingComponent", "source");

    /** The fields of events.k8s.io/v1 events kube-apiserver selects by. */
    static final List<String> EVENT_FIELDS = eventFields("regarding", "reportingController");

    private static List<String> eventFields(String object, String... more) {
        List<String> out = new ArrayList<>(List.of("metadata.name", "metadata.namespace", "reason", "type"));
        OBJECT_FIELDS.forEach(f -> out.add(object + "." + f));
        out.addAll(List.of(more));
        return List.copyOf(out);
    }

    /** The fields answered here for the collection {@code path} lists; empty for other collections. */
    static List<String> fieldsOf(String path) {
        return switch (Tables.collection(path)) {
            case "/api/v1/pods" -> FIELDS;
            case "/api/v1/events" -> CORE_EVENT_FIELDS;
            case "/apis/events.k8s.io/v1/events" -> EVENT_FIELDS;
            default -> List.of();
        };
    }

    /** The path with our terms removed, and the terms; null when the request has none of ours. */
    record Split(String path, List<Term> terms) {}

    private FieldSelector() {}

    static Split split(String path) {
        int q = path.indexOf('?');
        if (q < 0 || !path.contains("fieldSelector=")) {
            return null;
        }
        List<String> fields = fieldsOf(path);
        if (fields.isEmpty()) {
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
                if (t != null && fields.contains(t.field())) {
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
