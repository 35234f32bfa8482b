package io.hotsched.core.hostile;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;

/** A Filter plugin whose static initializer throws: the class can never be initialized. */
public final class FailsToInitialize implements FilterPlugin {

    private static final int LIMIT = limit();

    private static int limit() {
        throw new IllegalStateException("no limit configured");
    }

    @Override
    public String name() {
        return "FailsToInitialize";
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
        return LIMIT > 0 ? Status.SUCCESS : Status.unschedulable("no");
    }
}
