package io.hotsched.conformance.dynamicresources;

import io.hotsched.conformance.runner.ConformanceRunner;
import io.hotsched.conformance.runner.PluginCases;
import io.hotsched.plugins.dynamicresources.AllocatorCases;
import java.util.Map;

/** DynamicResources' cases: the plugin's own table runs in the generic runner, the allocator's table needs the bundle's Allocator. */
public final class DynamicResourcesPluginCases {

    private DynamicResourcesPluginCases() {}

    public static Map<String, PluginCases> byPlugin() {
        return Map.of("DynamicResources", (factory, plugins, c) -> {
            if (AllocatorCases.KIND.equals(c.path("kind").asText())) {
                AllocatorCases.run(c);
            } else {
                ConformanceRunner.run(factory, c);
            }
        });
    }
}
