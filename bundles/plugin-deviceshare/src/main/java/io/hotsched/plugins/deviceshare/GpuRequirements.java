package io.hotsched.plugins.deviceshare;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * What allocation needs to know of a pod's GPU request: how many GPUs and what each gives, whether
 * they are shared, and the pod's partition wish ({@code scheduling.koordinator.sh/gpu-partition-spec}:
 * {@code {"allocatePolicy": "Restricted"|"BestEffort", "ringBusBandwidth": "200Gi"}}).
 */
public record GpuRequirements(
        int numberOfGPUs,
        Map<String, BigDecimal> requestsPerGPU,
        boolean gpuShared,
        boolean honorGPUPartition,
        boolean restrictedGPUPartition,
        BigDecimal ringBusBandwidth) {

    static final String PARTITION_SPEC = "scheduling.koordinator.sh/gpu-partition-spec";

    /** The requirements of a normalized GPU part of a request; null when there is none. */
    public static GpuRequirements of(Pod pod, Map<String, BigDecimal> gpu) throws DeviceRequests.Invalid {
        if (gpu == null || gpu.isEmpty()) {
            return null;
        }
        GpuSplit split = GpuSplit.of(gpu);
        // a blank annotation is still one, and invalid, as in Koordinator
        String spec = Annotations.raw(pod, PARTITION_SPEC);
        boolean honor = false;
        boolean restricted = false;
        BigDecimal bandwidth = null;
        if (spec != null) {
            JsonNode json;
            try {
                json = Annotations.JSON.readTree(spec);
            } catch (JacksonException e) {
                throw new DeviceRequests.Invalid(
                        "invalid " + PARTITION_SPEC + " " + spec + ": " + e.getOriginalMessage());
            }
            if (!json.isObject()) {
                throw new DeviceRequests.Invalid("invalid " + PARTITION_SPEC + " " + spec + ": not an object");
            }
            honor = true;
            restricted = "Restricted".equals(json.path("allocatePolicy").asText(""));
            String bw = json.path("ringBusBandwidth").asText("");
            if (!bw.isEmpty()) {
                try {
                    bandwidth = new Quantity(bw).getNumericalAmount();
                } catch (RuntimeException e) {
                    throw new DeviceRequests.Invalid("invalid ringBusBandwidth " + bw + " in " + PARTITION_SPEC);
                }
            }
        }
        return new GpuRequirements(split.count(), split.perGpu(), split.shared(), honor, restricted, bandwidth);
    }
}
