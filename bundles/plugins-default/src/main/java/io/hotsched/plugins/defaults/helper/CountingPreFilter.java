package io.hotsched.plugins.defaults.helper;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PreFilterExtensions;
import io.hotsched.api.framework.Status;

/**
 * PreFilter extensions of a plugin whose PreFilter state counts pods: adding a pod counts it once
 * more, removing it once less.
 */
public interface CountingExtensions extends PreFilterExtensions {

    /** Counts {@code other} on {@code node} {@code delta} (+1 or -1) times in the state for {@code pod}. */
    Status update(CycleState state, PodInfo pod, PodInfo other, NodeInfo node, long delta);

    @Override
    default Status addPod(CycleState state, PodInfo podToSchedule, PodInfo podToAdd, NodeInfo node) {
        return update(state, podToSchedule, podToAdd, node, 1);
    }

    @Override
    default Status removePod(CycleState state, PodInfo podToSchedule, PodInfo podToRemove, NodeInfo node) {
        return update(state, podToSchedule, podToRemove, node, -1);
    }
}
