package io.hotsched.core.config;

import java.util.Map;

/**
 * One scheduling profile after defaults: its plugins per extension point (MultiPoint not yet
 * expanded: that needs the plugin instances) and the plugins' arguments.
 *
 * @param percentageOfNodesToScore the profile's own value, or null to use the global one
 */
public record ProfileConfig(
        String schedulerName,
        Integer percentageOfNodesToScore,
        Map<ExtensionPoint, PluginSet> plugins,
        Map<String, PluginConfig> pluginConfig,
        String path) {

    public PluginSet plugins(ExtensionPoint point) {
        return plugins.getOrDefault(point, PluginSet.EMPTY);
    }
}
