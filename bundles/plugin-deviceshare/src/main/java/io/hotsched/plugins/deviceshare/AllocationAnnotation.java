package io.hotsched.plugins.deviceshare;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * {@code scheduling.koordinator.sh/device-allocated}: the devices a pod holds, by device type,
 * as DeviceShare's PreBind writes it: {@code {"gpu":[{"minor":0,"resources":{...},"id":"..."}]}}.
 * The node's used amounts are the sum of its pods' annotations, so a newly installed plugin
 * version starts from what the cluster says.
 */
public final class AllocationAnnotation {

    public static final String KEY = "scheduling.koordinator.sh/device-allocated";

    private AllocationAnnotation() {}

    /** The pod's allocations, or null when it has none or the annotation cannot be read. */
    static Map<String, List<GpuMemoryFill.Allocation>> of(Pod pod) {
        String text = Annotations.of(pod, KEY);
        return text == null ? null : parse(text);
    }

    /** The allocations of the annotation's text, or null when it cannot be read. */
    static Map<String, List<GpuMemoryFill.Allocation>> parse(String text) {
        JsonNode json;
        try {
            json = Annotations.JSON.readTree(text);
        } catch (JacksonException e) {
            return null;
        }
        Map<String, List<GpuMemoryFill.Allocation>> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> type : json.properties()) {
            List<GpuMemoryFill.Allocation> list = new ArrayList<>();
            for (JsonNode a : type.getValue()) {
                Map<String, BigDecimal> resources = new TreeMap<>();
                try {
                    a.path("resources")
                            .properties()
                            .forEach(r -> resources.put(
                                    r.getKey(), new Quantity(r.getValue().asText()).getNumericalAmount()));
                } catch (RuntimeException e) {
                    return null;
                }
                list.add(new GpuMemoryFill.Allocation(a.path("minor").asInt(), resources));
            }
            out.put(type.getKey(), list);
        }
        return out;
    }

    /** Adds {@code allocations} to {@code used} (type to minor to amounts). */
    static void addTo(
            Map<String, Map<Integer, Map<String, BigDecimal>>> used,
            Map<String, List<GpuMemoryFill.Allocation>> allocations) {
        allocations.forEach((type, list) -> {
            Map<Integer, Map<String, BigDecimal>> byMinor = used.computeIfAbsent(type, t -> new TreeMap<>());
            for (GpuMemoryFill.Allocation a : list) {
                Map<String, BigDecimal> u = byMinor.computeIfAbsent(a.minor(), m -> new TreeMap<>());
                a.resources().forEach((r, v) -> u.merge(r, v, BigDecimal::add));
            }
        });
    }

    /**
     * The annotation's text as Koordinator's PreBind writes it (Go's JSON of its allocation map):
     * types and resource names in sorted order; per device {@code minor}, {@code resources}
     * (null when there are none) and the device's {@code id} from the Device object (left out
     * when it has none); quantities in Go's canonical form.
     *
     * @param ids per type, the id of each minor (from the node's Device object)
     */
    static String write(
            Map<String, List<GpuMemoryFill.Allocation>> allocations, Map<String, Map<Integer, String>> ids) {
        StringBuilder b = new StringBuilder("{");
        boolean firstType = true;
        for (Map.Entry<String, List<GpuMemoryFill.Allocation>> type : new TreeMap<>(allocations).entrySet()) {
            if (!firstType) {
                b.append(',');
            }
            firstType = false;
            b.append(Annotations.JSON.writeValueAsString(type.getKey())).append(":[");
            boolean firstDevice = true;
            for (GpuMemoryFill.Allocation a : type.getValue()) {
                if (!firstDevice) {
                    b.append(',');
                }
                firstDevice = false;
                b.append("{\"minor\":").append(a.minor()).append(",\"resources\":");
                if (a.resources() == null) {
                    b.append("null");
                } else {
                    b.append('{');
                    boolean firstResource = true;
                    for (Map.Entry<String, BigDecimal> r : new TreeMap<>(a.resources()).entrySet()) {
                        if (!firstResource) {
                            b.append(',');
                        }
                        firstResource = false;
                        b.append(Annotations.JSON.writeValueAsString(r.getKey()))
                                .append(':')
                                .append(Annotations.JSON.writeValueAsString(GoQuantity.format(
                                        r.getValue(), r.getKey().equals(DeviceResources.GPU_MEMORY))));
                    }
                    b.append('}');
                }
                String id = ids.getOrDefault(type.getKey(), Map.of()).get(a.minor());
                if (id != null && !id.isEmpty()) {
                    b.append(",\"id\":").append(Annotations.JSON.writeValueAsString(id));
                }
                b.append('}');
            }
            b.append(']');
        }
        return b.append('}').toString();
    }
}
