package io.hotsched.plugins.defaults.queuesort;

import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PluginArgs;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.api.framework.QueueSortPlugin;
import io.hotsched.api.framework.QueuedPodInfo;
import org.osgi.service.component.annotations.Component;

/** Higher {@code spec.priority} first (unset is 0); on a tie, the pod queued earlier. */
@Component(property = PluginFactory.NAME_PROPERTY + "=" + PrioritySort.NAME)
public final class PrioritySort implements PluginFactory, QueueSortPlugin {

    public static final String NAME = "PrioritySort";

    @Override
    public Plugin create(PluginArgs args, Handle handle) {
        return new PrioritySort();
    }

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
