package io.hotsched.plugins.defaults.helper;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PreFilterExtensions;
import io.hotsched.api.framework.StateData;
import io.hotsched.api.framework.Status;

/**
 * A {@link StatefulFilter} whose PreFilter state counts pods, with its own PreFilter extensions:
 * adding a pod counts it once more, removing it once less, in the state its PreFilter wrote (an
 * error when there is none, as upstream).
 *
 * @param <S> the PreFilter state
 */
public interface CountingPreFilter<S extends StateData> extends StatefulFilter<S>, PreFilterExtensions {

    /** Counts {@code other} on {@code node} {@code delta} (+1 or -1) times in {@code counts}, the state for {@code pod}. */
    Status update(S counts, PodInfo pod, PodInfo other, NodeInfo node, long delta);

    @Override
    default PreFilterExtensions preFilterExtensions() {
        return this;
    }

    @Override
    default Status addPod(CycleState state, PodInfo podToSchedule, PodInfo podToAdd, NodeInfo node) {
        return count(state, podToSchedule, podToAdd, node, 1);
    }

    @Override
    default Status removePod(CycleState state, PodInfo podToSchedule, PodInfo podToRemove, NodeInfo node) {
        return count(state, podToSchedule, podToRemove, node, -1);
    }

    private Status count(CycleState state, PodInfo pod, PodInfo other, NodeInfo node, long delta) {
        S counts = state.readOrNull(preFilterKey());
        return counts == null ? States.notFound(preFilterKey()) : update(counts, pod, other, node, delta);
    }
}
