package io.hotsched.plugins.deviceshare;

import io.hotsched.api.framework.Status;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * DeviceShare's Score for one node: per requested device type, the scorer's formula over the
 * node's devices of that type taken together (total and free summed, the per-device request
 * added once), summed over the types. Normalized across nodes afterwards.
 */
public final class NodeScore {

    /** The score, or why the node cannot be scored (then 0). */
    public record Result(long score, Status status) {}

    private NodeScore() {}

    public static Result score(
            PreFilterState s,
            NodeDevices devices,
            DeviceScorer scorer,
            Map<String, Map<Integer, Map<String, BigDecimal>>> preemptible) {
        if (s.skip() || devices == null) {
            return new Result(0, Status.SUCCESS);
        }
        long sum = 0;
        for (Map.Entry<String, Map<String, BigDecimal>> e :
                s.podDeviceRequests().entrySet()) {
            String type = e.getKey();
            List<DeviceEntry> list = devices.devices(type);
            if (list.isEmpty()) {
                return new Result(0, Status.unresolvable("Insufficient " + type + " devices"));
            }
            Map<String, BigDecimal> perDevice;
            if (type.equals(DeviceResources.TYPE_GPU)) {
                perDevice = s.gpuRequirements().requestsPerGPU();
            } else {
                Map.Entry<String, BigDecimal> only =
                        e.getValue().entrySet().iterator().next();
                DeviceRequestSplit split = DeviceRequestSplit.of(type, only.getKey(), only.getValue(), null, list);
                if (!split.status().isSuccess()) {
                    return new Result(0, split.status());
                }
                perDevice = split.perDevice();
            }
            Map<String, BigDecimal> total = new TreeMap<>();
            Map<String, BigDecimal> free = new TreeMap<>();
            Map<Integer, Map<String, BigDecimal>> victims =
                    preemptible == null ? Map.of() : preemptible.getOrDefault(type, Map.of());
            for (DeviceEntry d : list) {
                d.resources().forEach((r, v) -> total.merge(r, v, BigDecimal::add));
                devices.free(d, victims.get(d.minor())).forEach((r, v) -> free.merge(r, v, BigDecimal::add));
            }
            sum += scorer.score(perDevice, total, free);
        }
        return new Result(sum, Status.SUCCESS);
    }
}
