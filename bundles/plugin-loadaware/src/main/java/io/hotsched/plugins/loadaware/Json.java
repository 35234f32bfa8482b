package io.hotsched.plugins.loadaware;

import io.fabric8.kubernetes.api.model.Quantity;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The JSON of Koordinator's annotations, read with the Jackson the fabric8 model brings. */
final class Json {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private Json() {}

    /** The parsed text, or null when it is missing or not JSON. */
    static JsonNode read(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return MAPPER.readTree(text);
        } catch (JacksonException e) {
            return null;
        }
    }

    /** A flat object of whole numbers ({@code {"cpu":80}}); entries that are not numbers are left out. */
    static Map<String, Long> longs(JsonNode object) {
        Map<String, Long> out = new LinkedHashMap<>();
        if (object != null && object.isObject()) {
            object.properties().forEach(e -> {
                if (e.getValue().isIntegralNumber()) {
                    out.put(e.getKey(), e.getValue().asLong());
                }
            });
        }
        return out;
    }

    /** A ResourceList ({@code {"cpu":28,"memory":"32Gi"}}), or null when any entry is not a quantity. */
    static Map<String, Quantity> quantities(JsonNode object) {
        if (object == null || !object.isObject()) {
            return null;
        }
        Map<String, Quantity> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : object.properties()) {
            try {
                Quantity q = new Quantity(e.getValue().asText());
                q.getNumericalAmount();
                out.put(e.getKey(), q);
            } catch (RuntimeException ex) {
                return null;
            }
        }
        return out;
    }
}
