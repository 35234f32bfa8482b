package io.hotsched.plugins.deviceshare;

import static io.hotsched.plugins.deviceshare.DeviceResources.*;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A normalized GPU request spread over its devices: how many GPUs, what each of them gives, and
 * whether they are shared with other pods (less than a whole card's memory each).
 */
public record GpuSplit(Map<String, BigDecimal> perGpu, int count, boolean shared) {

    private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

    public static GpuSplit of(Map<String, BigDecimal> gpu) {
        BigDecimal shared = gpu.getOrDefault(GPU_SHARED, BigDecimal.ZERO);
        BigDecimal ratio = gpu.get(GPU_MEMORY_RATIO);
        int count = 1;
        if (shared.signum() > 0) {
            count = shared.intValueExact();
        } else if (ratio != null
                && ratio.compareTo(HUNDRED) > 0
                && ratio.remainder(HUNDRED).signum() == 0) {
            count = ratio.divide(HUNDRED, RoundingMode.DOWN).intValueExact();
        }
        BigDecimal n = BigDecimal.valueOf(count);
        Map<String, BigDecimal> per = new TreeMap<>();
        for (Map.Entry<String, BigDecimal> e : gpu.entrySet()) {
            String name = e.getKey();
            if (name.equals(GPU_SHARED)) {
                continue;
            }
            boolean divided = List.of(GPU_CORE, NPU_CORE, NPU_CPU, NPU_DVPP, GPU_MEMORY_RATIO)
                            .contains(name)
                    || name.equals(GPU_MEMORY) && ratio == null;
            per.put(name, divided ? e.getValue().divide(n, 0, RoundingMode.DOWN) : e.getValue());
        }
        BigDecimal ratioEach = ratio == null ? BigDecimal.ZERO : ratio.divide(n, 0, RoundingMode.DOWN);
        boolean isShared = ratioEach.compareTo(HUNDRED) < 0 || gpu.containsKey(GPU_MEMORY) && ratio == null;
        return new GpuSplit(per, count, isShared);
    }

    /** The bytes of {@code ratio} percent of a GPU with {@code totalMemory} bytes. */
    public static BigDecimal ratioToBytes(BigDecimal ratio, BigDecimal totalMemory) {
        return ratio.multiply(totalMemory).divide(HUNDRED, 0, RoundingMode.DOWN);
    }

    /** The whole percent of a GPU's {@code totalMemory} bytes that {@code bytes} is, rounded down. */
    static BigDecimal bytesToRatio(BigDecimal bytes, BigDecimal totalMemory) {
        return bytes.multiply(HUNDRED).divide(totalMemory, 0, RoundingMode.DOWN);
    }
}
