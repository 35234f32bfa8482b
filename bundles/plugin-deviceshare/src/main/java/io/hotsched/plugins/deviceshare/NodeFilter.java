package io.hotsched.plugins.deviceshare;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.hotsched.api.framework.Status;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * DeviceShare's Filter for one node: the shared-GPU checks (isolation provider, unsupported
 * models), then whether every requested device type can be allocated from what is free (no scorer:
 * Filter only asks whether it fits).
 */
final class NodeFilter {

    static final String ISOLATION_PROVIDER = "koordinator.sh/gpu-isolation-provider";
    static final String GPU_VENDOR = "node.koordinator.sh/gpu-vendor";
    static final String GPU_MODEL = "node.koordinator.sh/gpu-model";

    /** A GPU model that cannot be shared. */
    record Model(String vendor, String model) {}

    private NodeFilter() {}

    /**
     * @param devices the node's devices and their use; null when the node has no Device object
     * @param designated allocations the pod must keep (a designated allocation), or null
     * @param preemptible per type and minor, what preemption's dry run took from the node's pods
     */
    static Status filter(
            PreFilterState state,
            Pod pod,
            Node node,
            NodeDevices devices,
            List<Model> unsupported,
            Map<String, List<GpuMemoryFill.Allocation>> designated,
            Map<String, Map<Integer, Map<String, BigDecimal>>> preemptible) {
        if (state.skip()) {
            return Status.SUCCESS;
        }
        GpuRequirements gpu = state.gpuRequirements();
        Map<String, String> nodeLabels =
                node.getMetadata() == null || node.getMetadata().getLabels() == null
                        ? Map.of()
                        : node.getMetadata().getLabels();
        if (gpu != null && gpu.gpuShared()) {
            String wanted = pod.getMetadata() == null || pod.getMetadata().getLabels() == null
                    ? null
                    : pod.getMetadata().getLabels().get(ISOLATION_PROVIDER);
            if (wanted != null && !wanted.equals(nodeLabels.get(ISOLATION_PROVIDER))) {
                return Status.error("GPUIsolationProvider" + provider(wanted) + " not found on the node");
            }
            Model m = new Model(nodeLabels.get(GPU_VENDOR), nodeLabels.get(GPU_MODEL));
            if (unsupported.contains(m)) {
                return Status.unresolvable(
                        "model \"" + m.model() + "\" of vendor \"" + m.vendor() + "\" does not support GPU Share");
            }
        }
        return NodeAllocation.allocate(state, devices, designated, null, preemptible)
                .status();
    }

    /** "HAMi-core" → "HAMICore": the provider as Koordinator's constant names it. */
    private static String provider(String label) {
        StringBuilder b = new StringBuilder();
        for (String part : label.split("-")) {
            if (!part.isEmpty()) {
                b.append(part.substring(0, 1).toUpperCase()).append(part.substring(1));
            }
        }
        return b.toString().replace("Hami", "HAMI").replace("HAMi", "HAMI");
    }
}
