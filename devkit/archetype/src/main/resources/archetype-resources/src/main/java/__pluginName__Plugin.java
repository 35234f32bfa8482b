package ${package};

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.ScorePlugin;
import io.hotsched.api.framework.Status;

/**
 * Filter: a node must keep {@code minFreeMilliCpu} of cpu free once the pod is on it. Score (0 to
 * 100): the share of the node's cpu left free, highest for {@code spread}, lowest for {@code pack}.
 */
public final class ${pluginName}Plugin implements FilterPlugin, ScorePlugin {

    public static final String NAME = "${pluginName}";

    private final ${pluginName}Args args;

    public ${pluginName}Plugin(${pluginName}Args args) {
        this.args = args;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
        long left = freeAfter(pod, node);
        if (left < args.minFreeMilliCpu()) {
            return Status.unschedulable("node would keep less than " + args.minFreeMilliCpu() + "m cpu free");
        }
        return Status.SUCCESS;
    }

    @Override
    public long score(CycleState state, PodInfo pod, NodeInfo node) {
        long allocatable = node.allocatable().milliCpu();
        if (allocatable == 0) {
            return 0;
        }
        long share = Math.max(0, freeAfter(pod, node)) * 100 / allocatable;
        return "pack".equals(args.strategy()) ? 100 - share : share;
    }

    private static long freeAfter(PodInfo pod, NodeInfo node) {
        return node.allocatable().milliCpu() - node.requested().milliCpu() - pod.requests().milliCpu();
    }
}
