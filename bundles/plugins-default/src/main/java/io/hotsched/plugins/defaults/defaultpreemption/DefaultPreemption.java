package io.hotsched.plugins.defaults.defaultpreemption;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.InvalidArgsException;
import io.hotsched.api.framework.NodeToStatus;
import io.hotsched.api.framework.PluginArgs;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PostFilterPlugin;
import io.hotsched.api.framework.PostFilterResult;
import io.hotsched.api.framework.Status;
import java.util.List;

/**
 * PostFilter: when no node fits, finds the node where evicting the fewest and least important
 * lower-priority pods (respecting PodDisruptionBudgets where it can) makes the pod fit, evicts
 * them and nominates the pod to that node.
 */
public final class DefaultPreemption implements PostFilterPlugin {

    public static final String NAME = "DefaultPreemption";

    /** DefaultPreemptionArgs (v1). */
    public static final class Args {
        public Integer minCandidateNodesPercentage;
        public Integer minCandidateNodesAbsolute;
    }

    static DefaultPreemption create(PluginArgs args, Handle handle) throws InvalidArgsException {
        return new DefaultPreemption(new Evaluator(handle, NAME, CandidateLimits.of(args.as(Args.class))));
    }

    private final Evaluator evaluator;

    DefaultPreemption(Evaluator evaluator) {
        this.evaluator = evaluator;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public PostFilterResult postFilter(CycleState state, PodInfo pod, NodeToStatus statuses) {
        PostFilterResult r = evaluator.preempt(state, pod, statuses);
        Status st = r.status();
        if (st.message().isEmpty()) {
            return r;
        }
        return new PostFilterResult(st.withReasons(List.of("preemption: " + st.message())), r.nominatedNodeName());
    }
}
