package io.hotsched.embedded;

import io.hotsched.embedded.CustomResourceDefinitions.Column;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Server-side Tables of custom resources from their version's {@code additionalPrinterColumns}, as
 * kube-apiserver prints them: a NAME column, then each column's value at its JSONPath (the first
 * one; none is a null cell, which kubectl shows as {@code <none>}), typed as the column says:
 * {@code date}s as ages, objects and lists of {@code string} columns as compact JSON. A version
 * without columns gets the one column upstream gives it, {@code Age}.
 */
final class PrinterColumns {

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    static final List<Column> DEFAULT =
            List.of(new Column("Age", "date", "", "When the object was created.", 0, ".metadata.creationTimestamp"));

    private PrinterColumns() {}

    /** A Table of {@code listOrObject} with {@code columns} (empty: the default), as of {@code now}. */
    static ObjectNode table(JsonNode listOrObject, List<Column> columns, Instant now) {
        List<Column> shown = columns.isEmpty() ? DEFAULT : columns;
        ObjectNode t = F.objectNode();
        t.put("kind", "Table");
        t.put("apiVersion", "meta.k8s.io/v1");
        ObjectNode meta = t.putObject("metadata");
        String rv = listOrObject.path("metadata").path("resourceVersion").asText("");
        if (!rv.isEmpty() && listOrObject.has("items")) {
            meta.put("resourceVersion", rv);
        }
        ArrayNode definitions = t.putArray("columnDefinitions");
        definitions
                .addObject()
                .put("name", "Name")
                .put("type", "string")
                .put("format", "name")
                .put("description", "The object's name, unique in its namespace.")
                .put("priority", 0);
        for (Column c : shown) {
            definitions
                    .addObject()
                    .put("name", c.name())
                    .put("type", c.type())
                    .put("format", c.format())
                    .put("description", c.description())
                    .put("priority", c.priority());
        }
        t.putArray("rows");
        for (JsonNode object : Tables.items(listOrObject)) {
            List<JsonNode> cells = new ArrayList<>();
            cells.add(F.stringNode(object.path("metadata").path("name").asText()));
            for (Column c : shown) {
                List<JsonNode> found = JsonPaths.find(object, c.jsonPath());
                cells.add(found.isEmpty() ? F.nullNode() : cell(c.type(), found.get(0), now));
            }
            Tables.row(t, object, cells.toArray(JsonNode[]::new));
        }
        return t;
    }

    private static JsonNode cell(String type, JsonNode value, Instant now) {
        if (value.isNull()) {
            return F.nullNode();
        }
        return switch (type) {
            case "integer" -> value.isNumber() ? F.numberNode(value.asLong()) : F.nullNode();
            case "number" -> value.isNumber() ? F.numberNode(value.asDouble()) : F.nullNode();
            case "boolean" -> value.isBoolean() ? value : F.nullNode();
            case "date" -> value.isString() ? F.stringNode(age(value.asText(), now)) : F.nullNode();
            default -> F.stringNode((value.isObject() || value.isArray()) ? compact(value) : value.asText());
        };
    }

    private static String age(String timestamp, Instant now) {
        try {
            return Tables.humanDuration(java.time.Duration.between(Instant.parse(timestamp), now));
        } catch (DateTimeParseException e) {
            return "<invalid>";
        }
    }

    /** JSON without spaces, object keys sorted (as Go's encoder writes a map). */
    static String compact(JsonNode value) {
        if (value.isObject()) {
            Map<String, JsonNode> sorted = new TreeMap<>();
            value.properties().forEach(e -> sorted.put(e.getKey(), e.getValue()));
            StringBuilder b = new StringBuilder("{");
            sorted.forEach((k, v) -> b.append(b.length() > 1 ? "," : "")
                    .append(StatusJson.quote(k))
                    .append(':')
                    .append(compact(v)));
            return b.append('}').toString();
        }
        if (value.isArray()) {
            StringBuilder b = new StringBuilder("[");
            value.forEach(v -> b.append(b.length() > 1 ? "," : "").append(compact(v)));
            return b.append(']').toString();
        }
        return value.toString();
    }
}
