package io.hotsched.plugins.deviceshare;

import java.util.List;
import java.util.Map;

/**
 * {@code DeviceShareArgs} as written in a profile's {@code pluginConfig} (v1 JSON field names),
 * before defaulting; {@link DeviceShareArgs} is what the plugin runs with. {@code featureGates} is
 * hotsched's: Koordinator reads its gates from the scheduler's command line, which a bundle
 * cannot see.
 */
public final class Args {
    public ScoringStrategy scoringStrategy;
    public Boolean disableDeviceNUMATopologyAlignment;
    public Map<String, Object> gpuSharedResourceTemplatesConfig;
    public List<Model> gpuShareUnsupportedModels;
    public String allocator;
    public Map<String, Boolean> featureGates;

    /** {@code scoringStrategy}: LeastAllocated or MostAllocated over weighted resources. */
    public static final class ScoringStrategy {
        public String type;
        public List<Weight> resources;
    }

    /** One weighted resource. */
    public static final class Weight {
        public String name;
        public Long weight;
    }

    /** A GPU model that cannot be shared. */
    public static final class Model {
        public String vendor;
        public String model;
    }
}
