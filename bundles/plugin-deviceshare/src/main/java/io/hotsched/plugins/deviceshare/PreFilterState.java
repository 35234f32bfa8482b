package io.hotsched.plugins.deviceshare;

import io.hotsched.api.framework.ImmutableStateData;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What DeviceShare's PreFilter learns of a pod once per attempt: its device requests per type
 * (validated and normalized), its GPU requirements, and whether it takes whole GPUs (then secondary
 * devices such as RDMA are expected to be well planned next to them).
 */
public record PreFilterState(
        boolean skip,
        Map<String, Map<String, BigDecimal>> podDeviceRequests,
        GpuRequirements gpuRequirements,
        Map<String, DeviceRequestSplit.Hint> hints)
        implements ImmutableStateData {

    public PreFilterState(
            boolean skip, Map<String, Map<String, BigDecimal>> podDeviceRequests, GpuRequirements gpuRequirements) {
        this(skip, podDeviceRequests, gpuRequirements, Map.of());
    }

    public boolean podFitsSecondaryDeviceWellPlanned() {
        return gpuRequirements != null && !gpuRequirements.gpuShared();
    }

    /** The state of a pod, or the status PreFilter answers with (Skip, or UnschedulableAndUnresolvable with why). */
    public record Outcome(PreFilterState state, Status status) {}

    public static Outcome of(PodInfo pod) {
        Map<String, BigDecimal> requests = new LinkedHashMap<>();
        pod.requests().scalars().forEach((name, amount) -> requests.put(name, BigDecimal.valueOf(amount)));
        Map<String, Map<String, BigDecimal>> parts = DeviceRequests.byType(requests);
        if (parts.isEmpty()) {
            return new Outcome(new PreFilterState(true, Map.of(), null), Status.SKIP);
        }
        Map<String, Map<String, BigDecimal>> normalized = new LinkedHashMap<>();
        try {
            for (Map.Entry<String, Map<String, BigDecimal>> e : parts.entrySet()) {
                DeviceRequests.validate(e.getValue());
                normalized.put(e.getKey(), DeviceRequests.normalize(e.getValue()));
            }
            GpuRequirements gpu = GpuRequirements.of(pod.pod(), normalized.get(DeviceResources.TYPE_GPU));
            return new Outcome(new PreFilterState(false, normalized, gpu, AllocateHints.of(pod.pod())), Status.SUCCESS);
        } catch (DeviceRequests.Invalid e) {
            return new Outcome(null, Status.unresolvable(e.getMessage()));
        }
    }
}
