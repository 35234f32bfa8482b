package io.hotsched.core.config;

import java.util.List;

/** The {@code enabled} and {@code disabled} lists of one extension point. */
public record PluginSet(List<PluginRef> enabled, List<String> disabled) {

    public static final PluginSet EMPTY = new PluginSet(List.of(), List.of());

    public PluginSet {
        enabled = List.copyOf(enabled);
        disabled = List.copyOf(disabled);
    }

    public boolean disablesAll() {
        return disabled.contains("*");
    }
}
