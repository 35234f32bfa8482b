package io.hotsched.plugins.defaults.queuesort;

import io.hotsched.api.framework.QueueSortPlugin;
import io.hotsched.api.framework.QueuedPodInfo;

/** Higher {@code spec.priority} first (unset is 0); on a tie, the pod queued earlier. */
public final class PrioritySort implements QueueSortPlugin {

    public static final String NAME = "PrioritySort";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean less(QueuedPodInfo a, QueuedPodInfo b) {
        int p1 = a.pod().priority();
        int p2 = b.pod().priority();
        return p1 > p2 || p1 == p2 && a.timestamp().isBefore(b.timestamp());
    }
}
