package io.hotsched.testkit;

import io.hotsched.api.framework.PluginArgs;
import io.hotsched.core.runtime.PluginArgsImpl;
import java.util.Map;

/**
 * {@code pluginConfig} args for a factory's unit tests, bound exactly as the scheduler binds them
 * (unknown fields and wrong types are refused with the field's name).
 */
public final class TestArgs {

    private TestArgs() {}

    /** Args as a configuration would give them: maps, lists, strings, numbers, booleans. */
    public static PluginArgs of(Map<String, Object> raw) {
        return new PluginArgsImpl(raw);
    }

    /** No args: the plugin runs with its defaults. */
    public static PluginArgs none() {
        return of(Map.of());
    }
}
