package io.hotsched.plugins.deviceshare;

import io.hotsched.api.framework.Status;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * DeviceShare's Reserve for one node: every requested type allocated with the scorer (the best
 * devices first), GPU allocations completed with both memory amounts.
 */
final class Reservation {

    /** The devices taken per type, or why not. */
    record Result(Status status, Map<String, List<GpuMemoryFill.Allocation>> allocations) {
    }

    private Reservation() {
    }

    static Result allocate(PreFilterState s, NodeDevices devices, DeviceScorer scorer, Map<String, Map<Integer, Map<String, BigDecimal>>> preemptible) {
        Map<String, List<GpuMemoryFill.Allocation>> out = new LinkedHashMap<>();
        if (s.skip() || devices == null) {
            return new Result(Status.SUCCESS, out);
        }
        for (Map.Entry<String, Map<String, BigDecimal>> e : s.podDeviceRequests().entrySet()) {
            String type = e.getKey();
            Map<String, BigDecimal> perDevice;
            int count;
            if (type.equals(DeviceResources.TYPE_GPU)) {
                perDevice = s.gpuRequirements().requestsPerGPU();
                count = s.gpuRequirements().numberOfGPUs();
            } else {
                Map.Entry<String, BigDecimal> only = e.getValue().entrySet().iterator().next();
                DeviceRequestSplit split = DeviceRequestSplit.of(type, only.getKey(), only.getValue(), null, devices.devices(type));
                if (!split.status().isSuccess()) {
                    return new Result(split.status(), null);
                }
                perDevice = split.perDevice();
                count = split.count();
            }
            DefaultAllocator.Result r = DefaultAllocator.allocate(devices, type, perDevice, count, scorer, preemptible.get(type));
            if (!r.status().isSuccess()) {
                return new Result(r.status(), null);
            }
            List<GpuMemoryFill.Allocation> allocations = r.allocations();
            if (type.equals(DeviceResources.TYPE_GPU)) {
                Map<Integer, Map<String, BigDecimal>> totals = new TreeMap<>();
                devices.devices(type).forEach(d -> totals.put(d.minor(), d.resources()));
                try {
                    allocations = GpuMemoryFill.fill(allocations, totals);
                } catch (DeviceRequests.Invalid ex) {
                    return new Result(Status.error(ex.getMessage()), null);
                }
            }
            out.put(type, allocations);
        }
        return new Result(Status.SUCCESS, out);
    }
}
