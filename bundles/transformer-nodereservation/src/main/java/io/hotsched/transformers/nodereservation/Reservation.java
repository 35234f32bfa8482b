package io.hotsched.transformers.nodereservation;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A node's {@code node.koordinator.sh/reservation}:
 * {@code {"resources": {"cpu": "2", "memory": "4Gi"}, "reservedCPUs": "0-1", "applyPolicy": "Default"}}.
 * {@code reservedCPUs} (a cpuset) counts instead of {@code resources.cpu}. Only the
 * {@code Default} policy (also when absent) takes resources off allocatable; with
 * {@code ReservedCPUsOnly} the kubelet's own reservation already did.
 */
record Reservation(Map<String, BigDecimal> reserved, boolean trimsAllocatable) {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** The node's reservation, or null when it has none or it cannot be read. */
    static Reservation of(Node node) {
        Map<String, String> annotations =
                node.getMetadata() == null ? null : node.getMetadata().getAnnotations();
        String text = annotations == null ? null : annotations.get(NodeReservation.ANNOTATION);
        if (text == null || text.isBlank()) {
            return null;
        }
        JsonNode json;
        try {
            json = JSON.readTree(text);
        } catch (JacksonException e) {
            return null;
        }
        Map<String, BigDecimal> reserved = new LinkedHashMap<>();
        try {
            json.path("resources")
                    .properties()
                    .forEach(e ->
                            reserved.put(e.getKey(), new Quantity(e.getValue().asText()).getNumericalAmount()));
            String cpus = json.path("reservedCPUs").asText("");
            if (!cpus.isEmpty()) {
                reserved.put("cpu", BigDecimal.valueOf(CpuSet.size(cpus)));
            }
        } catch (RuntimeException e) {
            return null;
        }
        String policy = json.path("applyPolicy").asText("");
        return new Reservation(reserved, policy.isEmpty() || policy.equals("Default"));
    }
}
