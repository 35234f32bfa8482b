package io.hotsched.core.config;

/**
 * A plugin named in an {@code enabled} list.
 *
 * @param weight the configured weight (Score and MultiPoint only); 0 when not given
 * @param line the line of the entry in the configuration file, 0 for defaults
 */
public record PluginRef(String name, int weight, int line) {

    public static PluginRef of(String name) {
        return new PluginRef(name, 0, 0);
    }

    public static PluginRef of(String name, int weight) {
        return new PluginRef(name, weight, 0);
    }
}
