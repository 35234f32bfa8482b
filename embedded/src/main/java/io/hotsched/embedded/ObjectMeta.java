package io.hotsched.embedded;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What validation reads of an object's kind and metadata, from a parsed tree or straight from the
 * body's bytes (a streaming read that skips everything else, for the kinds nothing else parses).
 */
record ObjectMeta(
        String kind,
        String name,
        String generateName,
        List<Map.Entry<String, String>> labels,
        List<Map.Entry<String, String>> annotations) {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    static ObjectMeta of(JsonNode object) {
        JsonNode m = object.path("metadata");
        return new ObjectMeta(
                object.path("kind").asText(""),
                m.path("name").asText(""),
                m.path("generateName").asText(""),
                entries(m.path("labels")),
                entries(m.path("annotations")));
    }

    private static List<Map.Entry<String, String>> entries(JsonNode map) {
        List<Map.Entry<String, String>> out = new ArrayList<>(map.size());
        for (Map.Entry<String, JsonNode> e : map.properties()) {
            out.add(Map.entry(e.getKey(), e.getValue().asText("")));
        }
        return out;
    }

    /** The kind and metadata of a JSON body; null when it is not a JSON object. */
    static ObjectMeta scan(byte[] body) {
        String kind = "";
        String name = "";
        String generateName = "";
        List<Map.Entry<String, String>> labels = List.of();
        List<Map.Entry<String, String>> annotations = List.of();
        try (JsonParser p = JSON.createParser(body)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            for (String field = p.nextName(); field != null; field = p.nextName()) {
                JsonToken t = p.nextToken();
                if (field.equals("kind") && t == JsonToken.VALUE_STRING) {
                    kind = p.getString();
                } else if (field.equals("metadata") && t == JsonToken.START_OBJECT) {
                    for (String m = p.nextName(); m != null; m = p.nextName()) {
                        JsonToken v = p.nextToken();
                        switch (m) {
                            case "name" -> name = v == JsonToken.VALUE_STRING ? p.getString() : "";
                            case "generateName" -> generateName = v == JsonToken.VALUE_STRING ? p.getString() : "";
                            case "labels" -> labels = strings(p, v);
                            case "annotations" -> annotations = strings(p, v);
                            default -> p.skipChildren();
                        }
                    }
                } else {
                    p.skipChildren();
                }
            }
        } catch (RuntimeException e) {
            // the store answers an unreadable body in its own words
            return null;
        }
        return new ObjectMeta(kind, name, generateName, labels, annotations);
    }

    private static List<Map.Entry<String, String>> strings(JsonParser p, JsonToken at) {
        if (at != JsonToken.START_OBJECT) {
            p.skipChildren();
            return List.of();
        }
        List<Map.Entry<String, String>> out = new ArrayList<>();
        for (String k = p.nextName(); k != null; k = p.nextName()) {
            JsonToken v = p.nextToken();
            out.add(Map.entry(k, v.isScalarValue() ? p.getString() : ""));
            p.skipChildren();
        }
        return out;
    }

    /** Whether {@code body} has {@code needle} anywhere (a quick look before deciding to parse). */
    static boolean mentions(byte[] body, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= body.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (body[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
