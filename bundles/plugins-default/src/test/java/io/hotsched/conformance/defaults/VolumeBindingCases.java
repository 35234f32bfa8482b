package io.hotsched.conformance.defaults;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PreFilterPlugin;
import io.hotsched.conformance.runner.Check;
import io.hotsched.conformance.runner.ConformanceRunner;
import io.hotsched.core.runtime.PluginArgsImpl;
import io.hotsched.core.runtime.Snapshot;
import io.hotsched.plugins.defaults.volumebinding.VolumeBinding;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * VolumeBinding's cases: through the extension points, then, where upstream's table checks the
 * cycle state after PreFilter, the claims PreFilter sorted (by name), read from a PreFilter of
 * its own on a fresh plugin over the same objects.
 */
final class VolumeBindingCases {

    private VolumeBindingCases() {}

    static void run(PluginFactory factory, JsonNode c) throws Exception {
        ConformanceRunner.run(factory, c);
        JsonNode in = c.path("input");
        JsonNode want = c.path("expected").path("stateAfterPreFilter");
        if (want.isMissingNode()) {
            return;
        }
        PreFilterPlugin plugin = (PreFilterPlugin)
                factory.create(new PluginArgsImpl(ConformanceRunner.args(in)), ConformanceRunner.handle(in));
        CycleState state = new CycleState();
        plugin.preFilter(
                state, PodInfo.of(ConformanceRunner.pod(in.path("pod"))), new Snapshot(ConformanceRunner.nodes(in)));
        Map<String, Object> got = VolumeBinding.claimsAfterPreFilter(state);
        Check.notNull(got, "PreFilter wrote no state");
        Check.equal(ConformanceRunner.JSON.treeToValue(want, Map.class), got, "claims after PreFilter");
    }
}
