package io.hotsched.plugins.deviceshare;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One device of a node's {@code scheduling.koordinator.sh/v1alpha1 Device} ({@code spec.devices[]}):
 * its type, minor, health, resources (none when unhealthy: listed, never allocatable), id,
 * labels and where it sits (NUMA node, PCIe switch).
 */
public record DeviceEntry(
        String type,
        int minor,
        boolean healthy,
        Map<String, BigDecimal> resources,
        String id,
        Map<String, String> labels,
        Integer numaNode,
        String pcie) {

    /** The devices of a Device object's spec, as the cluster connection reports it (maps and lists). */
    @SuppressWarnings("unchecked")
    public static List<DeviceEntry> of(Map<String, Object> spec) {
        List<DeviceEntry> out = new ArrayList<>();
        Object devices = spec == null ? null : spec.get("devices");
        if (!(devices instanceof List<?> list)) {
            return out;
        }
        for (Object o : list) {
            if (!(o instanceof Map<?, ?> raw)) {
                continue;
            }
            Map<String, Object> d = (Map<String, Object>) raw;
            boolean healthy = Boolean.TRUE.equals(d.get("health"));
            Map<String, BigDecimal> resources = new TreeMap<>();
            if (healthy && d.get("resources") instanceof Map<?, ?> rs) {
                rs.forEach((k, v) ->
                        resources.put(String.valueOf(k), new Quantity(String.valueOf(v)).getNumericalAmount()));
            }
            Map<String, String> labels = new TreeMap<>();
            if (d.get("labels") instanceof Map<?, ?> ls) {
                ls.forEach((k, v) -> labels.put(String.valueOf(k), String.valueOf(v)));
            }
            Map<String, Object> topology = d.get("topology") instanceof Map<?, ?> t ? (Map<String, Object>) t : null;
            // a topology without nodeID or pcieID means NUMA node 0 and PCIe "" (Go's zero values)
            Integer numa = topology == null ? null : topology.get("nodeID") instanceof Number n ? n.intValue() : 0;
            String pcie = topology == null
                    ? null
                    : topology.get("pcieID") == null ? "" : String.valueOf(topology.get("pcieID"));
            out.add(new DeviceEntry(
                    String.valueOf(d.get("type")),
                    d.get("minor") instanceof Number n ? n.intValue() : 0,
                    healthy,
                    resources,
                    d.get("id") == null ? "" : String.valueOf(d.get("id")),
                    labels,
                    numa,
                    pcie));
        }
        return out;
    }
}
