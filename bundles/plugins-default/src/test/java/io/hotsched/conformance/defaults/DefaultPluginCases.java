package io.hotsched.conformance.defaults;

import io.hotsched.conformance.runner.PluginCases;
import io.hotsched.plugins.defaults.defaultpreemption.DefaultPreemption;
import io.hotsched.plugins.defaults.noderesourcesfit.NodeResourcesFit;
import io.hotsched.plugins.defaults.volumebinding.VolumeBinding;
import java.util.Map;

/** The default plugins whose upstream cases need checks of their own, by plugin name. */
public final class DefaultPluginCases {

    private DefaultPluginCases() {}

    public static Map<String, PluginCases> byPlugin() {
        return Map.of(
                DefaultPreemption.NAME, (factory, plugins, c) -> PreemptionRunner.run(plugins, c),
                NodeResourcesFit.NAME, (factory, plugins, c) -> NodeResourcesFitCases.run(factory, c),
                VolumeBinding.NAME, (factory, plugins, c) -> VolumeBindingCases.run(factory, c));
    }
}
