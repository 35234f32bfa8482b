package io.hotsched.transformers.amplification;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The amplified allocatable of a node: each resource with a ratio in
 * {@code {"cpu": 1.5, "memory": 1.2}} is its raw amount times the ratio, rounded down (cpu to the
 * millicore); the rest is as it is. The raw amount is the node's
 * {@code node.koordinator.sh/raw-allocatable} when it has one (the allocatable koord-manager
 * already amplified is not amplified twice), else its allocatable.
 */
final class Amplification {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);

    private Amplification() {}

    /** The allocatable Filter and Score should see, or null when the node is not amplified (no ratios, or unreadable). */
    static Map<String, Quantity> allocatable(Node node) {
        Map<String, String> annotations =
                node.getMetadata() == null ? null : node.getMetadata().getAnnotations();
        Map<String, BigDecimal> ratios =
                ratios(annotations == null ? null : annotations.get(ResourceAmplification.RATIO_ANNOTATION));
        if (ratios == null || ratios.isEmpty()) {
            return null;
        }
        Map<String, Quantity> alloc =
                node.getStatus() == null || node.getStatus().getAllocatable() == null
                        ? Map.of()
                        : node.getStatus().getAllocatable();
        Map<String, Quantity> raw = quantities(annotations.get(ResourceAmplification.RAW_ALLOCATABLE_ANNOTATION));
        Map<String, Quantity> out = new LinkedHashMap<>(alloc);
        for (Map.Entry<String, BigDecimal> r : ratios.entrySet()) {
            Quantity base = raw != null && raw.containsKey(r.getKey()) ? raw.get(r.getKey()) : alloc.get(r.getKey());
            if (base == null) {
                continue;
            }
            BigDecimal amount = base.getNumericalAmount().multiply(r.getValue());
            String text = r.getKey().equals("cpu")
                    ? amount.multiply(THOUSAND).setScale(0, RoundingMode.FLOOR).toPlainString() + "m"
                    : amount.setScale(0, RoundingMode.FLOOR).toPlainString();
            out.put(r.getKey(), new Quantity(text));
        }
        return out;
    }

    /** Ratios of at least 1 (Koordinator amplifies, never shrinks); null when the text is not a JSON object of numbers. */
    static Map<String, BigDecimal> ratios(String text) {
        JsonNode json = read(text);
        if (json == null || !json.isObject()) {
            return null;
        }
        Map<String, BigDecimal> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : json.properties()) {
            if (!e.getValue().isNumber()) {
                return null;
            }
            BigDecimal ratio = e.getValue().decimalValue();
            if (ratio.compareTo(BigDecimal.ONE) > 0) {
                out.put(e.getKey(), ratio);
            }
        }
        return out;
    }

    private static Map<String, Quantity> quantities(String text) {
        JsonNode json = read(text);
        if (json == null || !json.isObject()) {
            return null;
        }
        Map<String, Quantity> out = new LinkedHashMap<>();
        try {
            json.properties().forEach(e -> {
                Quantity q = new Quantity(e.getValue().asText());
                q.getNumericalAmount();
                out.put(e.getKey(), q);
            });
        } catch (RuntimeException e) {
            return null;
        }
        return out;
    }

    private static JsonNode read(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return JSON.readTree(text);
        } catch (JacksonException e) {
            return null;
        }
    }
}
