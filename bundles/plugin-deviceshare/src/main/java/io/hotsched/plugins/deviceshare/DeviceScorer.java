package io.hotsched.plugins.deviceshare;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * DeviceShare's scoring strategy: LeastAllocated (spread) or MostAllocated (bin-pack) over the
 * weighted resources a device (or a node's devices of one type) has. Amounts in the resources'
 * units (percent, bytes).
 */
public final class DeviceScorer {

    static final String LEAST_ALLOCATED = "LeastAllocated";
    static final String MOST_ALLOCATED = "MostAllocated";

    /** Koordinator's default: LeastAllocated over memory ratio, memory, RDMA and FPGA (gpu-core is not scored). */
    static final DeviceScorer DEFAULT = new DeviceScorer(LEAST_ALLOCATED, defaultWeights());

    private final boolean mostAllocated;
    private final Map<String, Long> weights;

    public DeviceScorer(String type, Map<String, Long> weights) {
        if (!type.equals(LEAST_ALLOCATED) && !type.equals(MOST_ALLOCATED)) {
            throw new IllegalArgumentException(
                    "scoringStrategy.type \"" + type + "\" is not " + LEAST_ALLOCATED + " or " + MOST_ALLOCATED);
        }
        for (Map.Entry<String, Long> w : weights.entrySet()) {
            if (w.getValue() <= 0 || w.getValue() > 100) {
                throw new IllegalArgumentException(
                        "scoringStrategy.resources[" + w.getKey() + "].weight " + w.getValue() + " is not in (0, 100]");
            }
        }
        this.mostAllocated = type.equals(MOST_ALLOCATED);
        this.weights = Map.copyOf(weights);
    }

    /** The strategy {@code type} over Koordinator's default weights. */
    static DeviceScorer withDefaultWeights(String type) {
        return new DeviceScorer(type, defaultWeights());
    }

    private static Map<String, Long> defaultWeights() {
        Map<String, Long> w = new LinkedHashMap<>();
        w.put(DeviceResources.GPU_MEMORY_RATIO, 1L);
        w.put(DeviceResources.GPU_MEMORY, 1L);
        w.put(DeviceResources.RDMA, 1L);
        w.put(DeviceResources.FPGA, 1L);
        return w;
    }

    /**
     * The score of giving {@code request} from something with {@code total} of which {@code free} is
     * left: per weighted resource with a non-zero total, the share left (or used) after the request,
     * weighted; 0 when no weighted resource applies.
     */
    public long score(Map<String, BigDecimal> request, Map<String, BigDecimal> total, Map<String, BigDecimal> free) {
        long sum = 0;
        long weightSum = 0;
        for (Map.Entry<String, Long> w : weights.entrySet()) {
            BigDecimal capacity = total.get(w.getKey());
            if (capacity == null || capacity.signum() <= 0) {
                continue;
            }
            BigDecimal left = free.getOrDefault(w.getKey(), BigDecimal.ZERO);
            BigDecimal used = capacity.compareTo(left) >= 0 ? capacity.subtract(left) : BigDecimal.ZERO;
            BigDecimal requested = used.add(request.getOrDefault(w.getKey(), BigDecimal.ZERO));
            long s;
            if (mostAllocated) {
                s = requested
                        .min(capacity)
                        .multiply(BigDecimal.valueOf(100))
                        .divideToIntegralValue(capacity)
                        .longValue();
            } else {
                s = requested.compareTo(capacity) > 0
                        ? 0
                        : capacity.subtract(requested)
                                .multiply(BigDecimal.valueOf(100))
                                .divideToIntegralValue(capacity)
                                .longValue();
            }
            sum += s * w.getValue();
            weightSum += w.getValue();
        }
        return weightSum == 0 ? 0 : sum / weightSum;
    }

    /** Scores scaled so the best node has 100 (no reversal; all zero stays zero). */
    public static void normalize(long[] scores) {
        long max = 0;
        for (long s : scores) {
            max = Math.max(max, s);
        }
        if (max == 0) {
            return;
        }
        for (int i = 0; i < scores.length; i++) {
            scores[i] = scores[i] * 100 / max;
        }
    }
}
