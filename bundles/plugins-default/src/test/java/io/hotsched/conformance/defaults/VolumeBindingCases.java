package io.hotsched.conformance.defaults;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PreFilterPlugin;
import io.hotsched.conformance.runner.Check;
import io.hotsched.conformance.runner.ConformanceRunner;
import io.hotsched.core.runtime.PluginArgsImpl;
import io.hotsched.core.runtime.Snapshot;
import io.hotsched.plugins.defaults.volumebinding.VolumeBinding;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * VolumeBinding's cases: through the extension points, then, where upstream's table checks them,
 * the claims PreFilter sorted and the volumes Filter found per node (by name), read from a
 * PreFilter and Filter of their own on a fresh plugin over the same objects.
 */
final class VolumeBindingCases {

    private VolumeBindingCases() {}

    static void run(PluginFactory factory, JsonNode c) throws Exception {
        ConformanceRunner.run(factory, c);
        JsonNode in = c.path("input");
        JsonNode want = c.path("expected");
        if (!want.has("stateAfterPreFilter") && !want.has("volumesFound")) {
            return;
        }
        PluginArgsImpl args = new PluginArgsImpl(ConformanceRunner.args(in));
        Plugin plugin = factory.create(args, ConformanceRunner.handle(in));
        PodInfo pod = PodInfo.of(ConformanceRunner.pod(in.path("pod")));
        List<NodeInfo> nodes = ConformanceRunner.nodes(in);
        CycleState state = new CycleState();
        ((PreFilterPlugin) plugin).preFilter(state, pod, new Snapshot(nodes));
        if (want.has("stateAfterPreFilter")) {
            Map<String, Object> got = VolumeBinding.claimsAfterPreFilter(state);
            Check.notNull(got, "PreFilter wrote no state");
            Check.equal(
                    ConformanceRunner.JSON.treeToValue(want.get("stateAfterPreFilter"), Map.class),
                    got,
                    "claims after PreFilter");
        }
        for (NodeInfo n : nodes) {
            JsonNode found = want.path("volumesFound").path(n.name());
            if (!found.isMissingNode()) {
                ((FilterPlugin) plugin).filter(state, pod, n);
                Check.equal(
                        ConformanceRunner.JSON.treeToValue(found, Map.class),
                        VolumeBinding.volumesFound(state, n.name()),
                        "volumes found on " + n.name());
            }
        }
    }
}
