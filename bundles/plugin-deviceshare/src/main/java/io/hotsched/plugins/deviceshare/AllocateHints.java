package io.hotsched.plugins.deviceshare;

import io.fabric8.kubernetes.api.model.Pod;
import io.hotsched.api.framework.LabelSelector;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * {@code scheduling.koordinator.sh/device-allocate-hint}: per device type, which devices may be
 * taken ({@code selector}), how an RDMA/FPGA request is counted ({@code allocateStrategy}), the
 * topology scope GPUs must share ({@code requiredTopologyScope}) and whether the devices' PCIe
 * switch must be otherwise unused ({@code exclusivePolicy: PCIeLevel}). VF selectors are not
 * supported (VF groups are out of scope).
 */
final class AllocateHints {

    static final String KEY = "scheduling.koordinator.sh/device-allocate-hint";
    static final String PCIE_LEVEL = "PCIeLevel";

    private AllocateHints() {}

    /** The pod's hints by device type; empty without the annotation. */
    static Map<String, DeviceRequestSplit.Hint> of(Pod pod) throws DeviceRequests.Invalid {
        String text = Annotations.of(pod, KEY);
        Map<String, DeviceRequestSplit.Hint> out = new LinkedHashMap<>();
        if (text == null) {
            return out;
        }
        try {
            for (Map.Entry<String, JsonNode> e : Annotations.JSON.readTree(text).properties()) {
                JsonNode h = e.getValue();
                LabelSelector selector = h.hasNonNull("selector")
                        ? LabelSelector.of(Annotations.JSON.treeToValue(
                                h.path("selector"), io.fabric8.kubernetes.api.model.LabelSelector.class))
                        : null;
                String scope = h.path("requiredTopologyScope").asText("");
                if (!scope.isEmpty() && !TopologyAllocator.LEVELS.containsKey(scope)) {
                    throw new DeviceRequests.Invalid("annotation " + KEY + ": " + e.getKey()
                            + ".requiredTopologyScope \"" + scope + "\" is not one of Device, PCIe, NUMANode, Node");
                }
                out.put(
                        e.getKey(),
                        new DeviceRequestSplit.Hint(
                                selector,
                                h.path("allocateStrategy").asText(""),
                                h.path("exclusivePolicy").asText(""),
                                scope));
            }
        } catch (JacksonException | IllegalArgumentException e) {
            throw new DeviceRequests.Invalid("annotation " + KEY + " cannot be read: " + e.getMessage());
        }
        return out;
    }
}
