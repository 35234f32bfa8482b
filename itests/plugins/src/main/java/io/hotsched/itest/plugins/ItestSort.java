package io.hotsched.itest.plugins;

import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PluginArgs;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.api.framework.QueueSortPlugin;
import io.hotsched.api.framework.QueuedPodInfo;
import org.osgi.service.component.annotations.Component;

/** Higher priority first, then first come. */
@Component(property = PluginFactory.NAME_PROPERTY + "=" + ItestSort.NAME)
public final class ItestSort implements PluginFactory {

    public static final String NAME = "ItestSort";

    @Override
    public Plugin create(PluginArgs args, Handle handle) {
        return new QueueSortPlugin() {
            @Override
            public String name() {
                return NAME;
            }

            @Override
            public boolean less(QueuedPodInfo a, QueuedPodInfo b) {
                if (a.pod().priority() != b.pod().priority()) {
                    return a.pod().priority() > b.pod().priority();
                }
                return a.timestamp().isBefore(b.timestamp());
            }
        };
    }
}
