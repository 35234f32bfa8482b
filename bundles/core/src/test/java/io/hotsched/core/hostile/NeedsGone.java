package io.hotsched.core.hostile;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;

/** A Filter plugin that needs {@link Gone} when it filters; loaded through {@link HidingLoader}, it cannot. */
public final class NeedsGone implements FilterPlugin {

    @Override
    public String name() {
        return "NeedsGone";
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
        return Gone.yes() ? Status.SUCCESS : Status.unschedulable("no");
    }
}
