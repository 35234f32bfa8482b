package io.hotsched.conformance.runner;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PreFilterPlugin;
import io.hotsched.api.framework.PreFilterResult;
import io.hotsched.api.framework.PreScorePlugin;
import io.hotsched.api.framework.ScorePlugin;
import io.hotsched.api.framework.Status;
import io.hotsched.core.runtime.Snapshot;
import io.hotsched.testing.FakeHandle;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Cases of kind {@link ConformanceRunner#CYCLE}: one scheduling cycle of one plugin, in one
 * CycleState, checked at every step as upstream's table checks it (VolumeBinding's
 * TestVolumeBinding). An expectation left out means success: PreFilter Success with all nodes,
 * Filter Success on a node not listed, PreScore Success. A PreFilter or PreScore that does not
 * succeed ends the cycle there, as the framework (and upstream's test) stops there.
 */
final class CycleCases {

    private CycleCases() {}

    static void run(Plugin plugin, JsonNode in, JsonNode want, FakeHandle handle) throws Exception {
        PodInfo pod = PodInfo.of(ConformanceRunner.pod(in.path("pod")));
        List<NodeInfo> nodes = ConformanceRunner.nodes(in);
        handle.setSnapshot(new Snapshot(nodes));
        CycleState state = new CycleState();
        if (plugin instanceof PreFilterPlugin pf) {
            PreFilterResult r = pf.preFilter(state, pod, new Snapshot(nodes));
            ConformanceRunner.assertStatus(want.path("preFilterStatus"), r.status(), "PreFilter");
            ConformanceRunner.assertPreFilterNodes(want.path("preFilterResultNodeNames"), r);
            if (!r.status().isSuccess()) {
                return;
            }
        }
        for (NodeInfo n : nodes) {
            Status st = ((FilterPlugin) plugin).filter(state, pod, n);
            ConformanceRunner.assertStatus(want.path("filterStatus").path(n.name()), st, "Filter on " + n.name());
        }
        if (plugin instanceof PreScorePlugin ps) {
            Status st = ps.preScore(state, pod, nodes);
            ConformanceRunner.assertStatus(want.path("preScoreStatus"), st, "PreScore");
            if (!st.isSuccess()) {
                return;
            }
        }
        // upstream's table scores every node, those Filter rejected too (they score 0)
        Map<String, Long> scores = new LinkedHashMap<>();
        for (NodeInfo n : nodes) {
            scores.put(n.name(), ((ScorePlugin) plugin).score(state, pod, n));
        }
        Map<String, Long> expected = new LinkedHashMap<>();
        want.path("rawScores")
                .properties()
                .forEach(e -> expected.put(e.getKey(), e.getValue().asLong()));
        Check.equal(expected, scores, "raw scores");
    }
}
