package io.hotsched.conformance.deviceshare;

import io.hotsched.conformance.runner.PluginCases;
import io.hotsched.plugins.deviceshare.DeviceShare;
import java.util.Map;

/** DeviceShare's cases need their own checks: most are Koordinator's tests of its steps. */
public final class DeviceSharePluginCases {

    private DeviceSharePluginCases() {}

    public static Map<String, PluginCases> byPlugin() {
        return Map.of(DeviceShare.NAME, (factory, plugins, c) -> DeviceShareCases.run(c));
    }
}
