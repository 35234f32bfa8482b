package io.hotsched.plugins.deviceshare;

import io.hotsched.api.framework.InvalidArgsException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * DeviceShare's args after Koordinator's defaulting and validation: the scorer (default
 * LeastAllocated over gpu-memory-ratio, gpu-memory, rdma and fpga, weight 1 each), the GPU models
 * that cannot be shared, and whether PreBind also writes the device-plugin adapter annotations.
 */
public record DeviceShareArgs(
        DeviceScorer scorer, List<NodeFilter.Model> unsupportedModels, boolean devicePluginAdaption) {

    static final String DEVICE_PLUGIN_ADAPTION = "DevicePluginAdaption";

    public static final DeviceShareArgs DEFAULT = new DeviceShareArgs(DeviceScorer.DEFAULT, List.of(), false);

    public static DeviceShareArgs defaulted(Args a) throws InvalidArgsException {
        if (a == null) {
            return DEFAULT;
        }
        DeviceScorer scorer = DeviceScorer.DEFAULT;
        if (a.scoringStrategy != null) {
            String type = a.scoringStrategy.type == null || a.scoringStrategy.type.isEmpty()
                    ? DeviceScorer.LEAST_ALLOCATED
                    : a.scoringStrategy.type;
            if (!type.equals(DeviceScorer.LEAST_ALLOCATED) && !type.equals(DeviceScorer.MOST_ALLOCATED)) {
                throw new InvalidArgsException(
                        "scoringStrategy.type",
                        type,
                        "must be " + DeviceScorer.LEAST_ALLOCATED + " or " + DeviceScorer.MOST_ALLOCATED);
            }
            Map<String, Long> weights = new LinkedHashMap<>();
            if (a.scoringStrategy.resources == null || a.scoringStrategy.resources.isEmpty()) {
                weights = null;
            } else {
                for (int i = 0; i < a.scoringStrategy.resources.size(); i++) {
                    Args.Weight w = a.scoringStrategy.resources.get(i);
                    if (w == null || w.name == null || w.name.isEmpty()) {
                        throw new InvalidArgsException(
                                "scoringStrategy.resources[" + i + "].name",
                                w == null ? null : w.name,
                                "must name a resource");
                    }
                    long weight = w.weight == null ? 1 : w.weight;
                    if (weight <= 0 || weight > 100) {
                        throw new InvalidArgsException(
                                "scoringStrategy.resources[" + i + "].weight", weight, "must be in the range (0, 100]");
                    }
                    weights.put(w.name, weight);
                }
            }
            scorer = weights == null ? DeviceScorer.withDefaultWeights(type) : new DeviceScorer(type, weights);
        }
        List<NodeFilter.Model> models = new ArrayList<>();
        if (a.gpuShareUnsupportedModels != null) {
            for (Args.Model m : a.gpuShareUnsupportedModels) {
                if (m != null) {
                    models.add(new NodeFilter.Model(m.vendor, m.model));
                }
            }
        }
        boolean adaption = false;
        if (a.featureGates != null) {
            for (Map.Entry<String, Boolean> g : a.featureGates.entrySet()) {
                if (!g.getKey().equals(DEVICE_PLUGIN_ADAPTION)) {
                    throw new InvalidArgsException(
                            "featureGates." + g.getKey(),
                            g.getValue(),
                            "is not a gate DeviceShare knows (known: " + DEVICE_PLUGIN_ADAPTION + ")");
                }
                adaption = Boolean.TRUE.equals(g.getValue());
            }
        }
        return new DeviceShareArgs(scorer, List.copyOf(models), adaption);
    }
}
