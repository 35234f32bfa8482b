package io.hotsched.conformance;

import io.hotsched.conformance.defaults.DefaultPluginCases;
import io.hotsched.conformance.deviceshare.DeviceSharePluginCases;
import io.hotsched.conformance.dynamicresources.DynamicResourcesPluginCases;
import io.hotsched.conformance.loadaware.LoadAwarePluginCases;
import io.hotsched.conformance.runner.PluginCases;
import java.util.HashMap;
import java.util.Map;

/** The own checks of every plugin module whose cases the command runs. */
final class PluginChecks {

    private PluginChecks() {}

    static Map<String, PluginCases> all() {
        Map<String, PluginCases> all = new HashMap<>(DefaultPluginCases.byPlugin());
        all.putAll(LoadAwarePluginCases.byPlugin());
        all.putAll(DeviceSharePluginCases.byPlugin());
        all.putAll(DynamicResourcesPluginCases.byPlugin());
        return Map.copyOf(all);
    }
}
