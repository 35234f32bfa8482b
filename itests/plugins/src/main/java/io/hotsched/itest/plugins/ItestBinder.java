package io.hotsched.itest.plugins;

import io.hotsched.api.framework.BindPlugin;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PluginArgs;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;
import org.osgi.service.component.annotations.Component;

/** Binds through the cluster client. */
@Component(property = PluginFactory.NAME_PROPERTY + "=" + ItestBinder.NAME)
public final class ItestBinder implements PluginFactory {

    public static final String NAME = "ItestBinder";

    @Override
    public Plugin create(PluginArgs args, Handle handle) {
        return new BindPlugin() {
            @Override
            public String name() {
                return NAME;
            }

            @Override
            public Status bind(CycleState state, PodInfo pod, String nodeName) {
                try {
                    handle.cluster().bind(pod, nodeName);
                    return Status.SUCCESS;
                } catch (RuntimeException e) {
                    return Status.error(e);
                }
            }
        };
    }
}
