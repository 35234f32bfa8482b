package io.hotsched.testing;

import java.util.LinkedHashMap;
import java.util.Map;

/** Entries of a Koordinator Device object's {@code spec.devices} list, as its JSON reads. */
public final class Devices {

    private Devices() {}

    /**
     * A healthy GPU, id "GPU-{@code minor}", with 100 of gpu-core and gpu-memory-ratio and
     * {@code memory} of gpu-memory; a mutable map, so that a test can add a topology or drop the id.
     */
    public static Map<String, Object> gpu(int minor, String memory) {
        Map<String, Object> gpu = new LinkedHashMap<>();
        gpu.put("type", "gpu");
        gpu.put("id", "GPU-" + minor);
        gpu.put("minor", minor);
        gpu.put("health", true);
        gpu.put(
                "resources",
                Map.of(
                        "koordinator.sh/gpu-core",
                        "100",
                        "koordinator.sh/gpu-memory-ratio",
                        "100",
                        "koordinator.sh/gpu-memory",
                        memory));
        return gpu;
    }
}
