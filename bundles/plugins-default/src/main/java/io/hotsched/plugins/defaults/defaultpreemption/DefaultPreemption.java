package io.hotsched.plugins.defaults.defaultpreemption;

import io.hotsched.api.framework.ActionType;
import io.hotsched.api.framework.ClusterEvent;
import io.hotsched.api.framework.ClusterEventWithHint;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.EnqueueExtensions;
import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.InvalidArgsException;
import io.hotsched.api.framework.NodeToStatus;
import io.hotsched.api.framework.PluginArgs;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PostFilterPlugin;
import io.hotsched.api.framework.PostFilterResult;
import io.hotsched.api.framework.PreEnqueuePlugin;
import io.hotsched.api.framework.Status;
import java.util.List;

/**
 * PostFilter: when no node fits, finds the node where evicting the fewest and least important
 * lower-priority pods (respecting PodDisruptionBudgets where it can) makes the pod fit, evicts
 * them and nominates the pod to that node. With {@code SchedulerAsyncPreemption} the evictions run
 * after the cycle, and PreEnqueue keeps the preemptor out of the active queue until they are done
 * ({@link Eviction}).
 */
public final class DefaultPreemption implements PostFilterPlugin, PreEnqueuePlugin, EnqueueExtensions {

    public static final String NAME = "DefaultPreemption";

    /** Upstream's message for a preemptor kept out of the queue. */
    static final String WAITING_FOR_PREEMPTION = "waiting for the preemption for this pod to be finished";

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
    public Status preEnqueue(PodInfo pod) {
        if (evaluator.eviction().running(pod.uid())) {
            return Status.unresolvable(WAITING_FOR_PREEMPTION);
        }
        return Status.SUCCESS;
    }

    /** A preemptor kept out is let in by the deletion of a pod (its last victim). */
    @Override
    public List<ClusterEventWithHint> eventsToRegister() {
        return List.of(ClusterEventWithHint.of(ClusterEvent.of(ClusterEvent.POD, ActionType.DELETE)));
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
