package io.hotsched.plugins.deviceshare;

import io.hotsched.api.framework.Status;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Allocates every device type a pod requests on one node, the way Filter (no scorer: does it
 * fit?) and Reserve (with the scorer: which devices?) both need: the pool narrowed by a
 * designated allocation and the pod's hints, GPUs by topology first, then the default order.
 */
final class NodeAllocation {

    /** The devices taken per type, or why not. */
    record Result(Status status, Map<String, List<GpuMemoryFill.Allocation>> allocations) {}

    private NodeAllocation() {}

    /**
     * @param devices the node's devices; null when it has no Device object (then nothing is allocated)
     * @param designated allocations the pod must keep, or null
     * @param scorer null in Filter
     * @param preemptible per type and minor, what preemption's dry run gives back
     */
    static Result allocate(
            PreFilterState s,
            NodeDevices devices,
            Map<String, List<GpuMemoryFill.Allocation>> designated,
            DeviceScorer scorer,
            Map<String, Map<Integer, Map<String, BigDecimal>>> preemptible) {
        Map<String, List<GpuMemoryFill.Allocation>> out = new LinkedHashMap<>();
        if (s.skip() || devices == null) {
            return new Result(Status.SUCCESS, out);
        }
        for (Map.Entry<String, Map<String, BigDecimal>> e :
                s.podDeviceRequests().entrySet()) {
            String type = e.getKey();
            DeviceRequestSplit.Hint hint = s.hints().get(type);
            Map<Integer, Map<String, BigDecimal>> victims = preemptible.get(type);
            NodeDevices pool = devices;
            if (designated != null && designated.containsKey(type)) {
                pool = pool.onlyDesignated(type, designated.get(type));
            }
            if (hint != null && hint.selector() != null) {
                pool = pool.only(type, d -> hint.selector().matches(d.labels()));
            }
            if (hint != null && AllocateHints.PCIE_LEVEL.equals(hint.exclusivePolicy())) {
                pool = pool.onlyFreePcie(type, victims);
            }
            Map<String, BigDecimal> perDevice;
            int count;
            List<GpuMemoryFill.Allocation> allocations = null;
            if (type.equals(DeviceResources.TYPE_GPU)) {
                if (devices.devices(type).isEmpty()) {
                    return new Result(Status.unresolvable("Insufficient " + type + " devices"), null);
                }
                GpuRequirements req = s.gpuRequirements();
                perDevice = req.requestsPerGPU();
                count = req.numberOfGPUs();
                TopologyAllocator.Result t = TopologyAllocator.allocate(
                        pool, req, hint == null ? null : hint.requiredTopologyScope(), scorer, victims);
                if (!t.fallThrough()) {
                    if (!t.status().isSuccess()) {
                        return new Result(t.status(), null);
                    }
                    allocations = t.allocations();
                }
            } else {
                Map.Entry<String, BigDecimal> only =
                        e.getValue().entrySet().iterator().next();
                DeviceRequestSplit split =
                        DeviceRequestSplit.of(type, only.getKey(), only.getValue(), hint, devices.devices(type));
                if (!split.status().isSuccess()) {
                    return new Result(split.status(), null);
                }
                if (devices.devices(type).isEmpty()) {
                    return new Result(Status.unresolvable("Insufficient " + type + " devices"), null);
                }
                perDevice = split.perDevice();
                count = split.count();
            }
            if (allocations == null) {
                DefaultAllocator.Result r = DefaultAllocator.allocate(pool, type, perDevice, count, scorer, victims);
                if (!r.status().isSuccess()) {
                    return new Result(r.status(), null);
                }
                allocations = r.allocations();
            }
            out.put(type, allocations);
        }
        return new Result(Status.SUCCESS, out);
    }

    /** GPU allocations completed with both memory amounts, from the devices' totals. */
    static Result withMemoryFilled(Result r, NodeDevices devices) {
        List<GpuMemoryFill.Allocation> gpus =
                r.allocations() == null ? null : r.allocations().get(DeviceResources.TYPE_GPU);
        if (gpus == null) {
            return r;
        }
        Map<Integer, Map<String, BigDecimal>> totals = new TreeMap<>();
        devices.devices(DeviceResources.TYPE_GPU).forEach(d -> totals.put(d.minor(), d.resources()));
        try {
            Map<String, List<GpuMemoryFill.Allocation>> out = new LinkedHashMap<>(r.allocations());
            out.put(DeviceResources.TYPE_GPU, GpuMemoryFill.fill(gpus, totals));
            return new Result(Status.SUCCESS, out);
        } catch (DeviceRequests.Invalid ex) {
            return new Result(Status.error(ex.getMessage()), null);
        }
    }
}
