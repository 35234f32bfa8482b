package io.hotsched.conformance.loadaware;

import io.hotsched.conformance.runner.PluginCases;
import io.hotsched.plugins.loadaware.LoadAwareScheduling;
import java.util.Map;

/** LoadAwareScheduling's cases need their own checks: Koordinator's tests inject NodeMetrics and time. */
public final class LoadAwarePluginCases {

    private LoadAwarePluginCases() {}

    public static Map<String, PluginCases> byPlugin() {
        return Map.of(LoadAwareScheduling.NAME, (factory, plugins, c) -> LoadAwareRunner.run(factory, c));
    }
}
