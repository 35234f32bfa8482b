package io.hotsched.plugins.deviceshare;

import static io.hotsched.plugins.deviceshare.DeviceResources.GPU_MEMORY;
import static io.hotsched.plugins.deviceshare.DeviceResources.GPU_MEMORY_RATIO;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * After allocation, each GPU allocation gets the one of gpu-memory and gpu-memory-ratio it lacks,
 * from the device's total memory, so the device-allocated annotation always carries both.
 */
public final class GpuMemoryFill {

    /** One device's share of an allocation. */
    public record Allocation(int minor, Map<String, BigDecimal> resources) {}

    private GpuMemoryFill() {}

    /**
     * The allocations with both memory amounts; refused (nothing changed) when a device is missing
     * or has no resources (unhealthy devices are kept with none).
     */
    public static List<Allocation> fill(List<Allocation> gpus, Map<Integer, Map<String, BigDecimal>> totals)
            throws DeviceRequests.Invalid {
        List<Allocation> out = new ArrayList<>(gpus.size());
        for (Allocation a : gpus) {
            Map<String, BigDecimal> total = totals.get(a.minor());
            if (total == null || total.isEmpty()) {
                throw new DeviceRequests.Invalid("no healthy gpu device with minor " + a.minor() + " of allocation");
            }
            Map<String, BigDecimal> r = new TreeMap<>(a.resources());
            BigDecimal totalMemory = total.get(GPU_MEMORY);
            if (totalMemory != null && totalMemory.signum() > 0) {
                if (r.containsKey(GPU_MEMORY_RATIO) && !r.containsKey(GPU_MEMORY)) {
                    r.put(GPU_MEMORY, GpuSplit.ratioToBytes(r.get(GPU_MEMORY_RATIO), totalMemory));
                } else if (r.containsKey(GPU_MEMORY) && !r.containsKey(GPU_MEMORY_RATIO)) {
                    r.put(GPU_MEMORY_RATIO, GpuSplit.bytesToRatio(r.get(GPU_MEMORY), totalMemory));
                }
            }
            out.add(new Allocation(a.minor(), r));
        }
        return out;
    }
}
