package io.hotsched.core.hostile;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;

/** A Filter plugin that needs {@link Gone} as it is made; loaded through {@link HidingLoader}, it cannot be. */
public final class NeedsGoneToStart implements FilterPlugin {

    private final boolean ready = Gone.yes();

    @Override
    public String name() {
        return "NeedsGoneToStart";
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
        return ready ? Status.SUCCESS : Status.unschedulable("no");
    }
}
