package io.hotsched.conformance.defaults;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeInfoLister;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PreFilterExtensions;
import io.hotsched.api.framework.PreFilterPlugin;
import io.hotsched.api.framework.PreFilterResult;
import io.hotsched.api.framework.Status;
import io.hotsched.testing.OnePoint;
import java.util.Map;

/**
 * The plugins of upstream's test framework that DefaultPreemption's tables register beside the
 * real ones, by the names the cases give them: Filter plugins that always pass, always fail, or
 * pass only the node named like the pod, and a PreFilter plugin whose AddPod and RemovePod fail on
 * nodes labelled {@code error=true}.
 */
final class PreemptionTestPlugins {

    /** The reason upstream's fake Filter plugins give. */
    static final String FAKE_REASON = "Nodes failed the fake plugin";

    private PreemptionTestPlugins() {}

    static final Map<String, PluginFactory> ALL = Map.of(
            "TrueFilter",
            (args, h) -> new OnePoint.Filter("TrueFilter", (state, pod, node) -> Status.SUCCESS),
            "FalseFilter",
            (args, h) -> new OnePoint.Filter("FalseFilter", (state, pod, node) -> Status.unschedulable(FAKE_REASON)),
            "MatchFilter",
            (args, h) -> new OnePoint.Filter(
                    "MatchFilter",
                    (state, pod, node) ->
                            pod.name().equals(node.name()) ? Status.SUCCESS : Status.unschedulable(FAKE_REASON)),
            FailingExtensions.NAME,
            (args, h) -> new FailingExtensions());

    /** upstream's TestPlugin: a PreFilter plugin whose extensions fail where the node says so. */
    private static final class FailingExtensions implements PreFilterPlugin {

        static final String NAME = "test-plugin";

        @Override
        public String name() {
            return NAME;
        }

        @Override
        public PreFilterResult preFilter(CycleState state, PodInfo pod, NodeInfoLister nodes) {
            return PreFilterResult.ALL_NODES;
        }

        @Override
        public PreFilterExtensions preFilterExtensions() {
            return FAILING_ON_ERROR_NODES;
        }
    }

    private static final PreFilterExtensions FAILING_ON_ERROR_NODES = new PreFilterExtensions() {
        @Override
        public Status addPod(CycleState state, PodInfo podToSchedule, PodInfo podToAdd, NodeInfo node) {
            return outcome("add", podToSchedule, node);
        }

        @Override
        public Status removePod(CycleState state, PodInfo podToSchedule, PodInfo podToRemove, NodeInfo node) {
            return outcome("remove", podToSchedule, node);
        }
    };

    /** upstream's TestPlugin names the pod being scheduled, not the one added or removed. */
    private static Status outcome(String op, PodInfo podToSchedule, NodeInfo node) {
        return "true".equals(node.labels().get("error"))
                ? Status.error("failed to " + op + " pod: " + podToSchedule.name())
                : Status.SUCCESS;
    }
}
