package io.hotsched.plugins.deviceshare;

import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeInfoLister;
import io.hotsched.api.framework.PodInfo;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** A node's devices as {@code sched:state DeviceShare [node]} shows them: per device, total, used and free. */
final class DeviceStateView {

    private DeviceStateView() {}

    /** What a pod holds on a node (its annotation, or a reservation not yet visible). */
    interface Holdings {
        Map<String, List<GpuMemoryFill.Allocation>> of(PodInfo pod, String node);
    }

    static Map<String, Object> of(
            NodeInfoLister snapshot,
            String node,
            Function<NodeInfo, NodeDevices> devicesOf,
            Holdings holdings,
            InFlight inFlight) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (NodeInfo n : snapshot.list()) {
            if (node != null && !node.equals(n.name())) {
                continue;
            }
            NodeDevices devices = devicesOf.apply(n);
            if (devices == null) {
                if (node != null) {
                    out.put(n.name(), "no Device object (Filter passes the node, Score gives it 0)");
                }
                continue;
            }
            List<Object> rows = new ArrayList<>();
            for (DeviceEntry d : devices.all()) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put(
                        "device",
                        d.type() + " " + d.minor() + (d.id() == null || d.id().isEmpty() ? "" : " (" + d.id() + ")"));
                if (!d.healthy()) {
                    row.put("health", "unhealthy: never allocated");
                }
                row.put("total", amounts(d.resources()));
                row.put("used", amounts(devices.used(d.type(), d.minor())));
                row.put("free", amounts(devices.free(d, null)));
                if (node != null) {
                    List<Object> holders = new ArrayList<>();
                    for (PodInfo p : n.pods()) {
                        Map<String, List<GpuMemoryFill.Allocation>> held = holdings.of(p, n.name());
                        for (GpuMemoryFill.Allocation a : held == null
                                ? List.<GpuMemoryFill.Allocation>of()
                                : held.getOrDefault(d.type(), List.of())) {
                            if (a.minor() == d.minor()) {
                                holders.add(p.key() + ": " + amounts(a.resources() == null ? Map.of() : a.resources()));
                            }
                        }
                    }
                    row.put("pods", holders.isEmpty() ? "none" : holders);
                }
                rows.add(row);
            }
            out.put(n.name(), rows);
        }
        if (node != null && out.isEmpty()) {
            out.put(node, "no such node in the scheduler's snapshot");
        }
        if (node == null) {
            out.put("reserved, not yet seen annotated", inFlight.size());
        }
        return out;
    }

    private static String amounts(Map<String, BigDecimal> m) {
        StringBuilder b = new StringBuilder();
        m.forEach((r, v) -> {
            if (b.length() > 0) {
                b.append(", ");
            }
            b.append(r.replace("koordinator.sh/", ""))
                    .append('=')
                    .append(GoQuantity.format(v, r.equals(DeviceResources.GPU_MEMORY)));
        });
        return b.length() == 0 ? "-" : b.toString();
    }
}
