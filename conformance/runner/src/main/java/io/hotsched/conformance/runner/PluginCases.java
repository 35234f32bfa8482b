package io.hotsched.conformance.runner;

import io.hotsched.api.framework.PluginFactory;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The checks of one plugin's cases that need the plugin's own classes (upstream's unit tests of
 * its internal steps, or state it injects). They live with the plugin module's tests, because this
 * runner must not depend on any plugin: each plugin module runs its cases in its own build.
 */
@FunctionalInterface
public interface PluginCases {

    /**
     * Runs case {@code c} of the plugin {@code factory} makes; a difference is thrown as an
     * {@link AssertionError} naming what differed.
     *
     * @param plugins every plugin of the catalog, for cases that compose several
     */
    void run(PluginFactory factory, Map<String, PluginFactory> plugins, JsonNode c) throws Exception;
}
