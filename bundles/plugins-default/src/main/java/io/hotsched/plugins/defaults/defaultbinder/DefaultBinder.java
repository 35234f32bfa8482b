package io.hotsched.plugins.defaults.defaultbinder;

import io.hotsched.api.framework.BindPlugin;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PluginArgs;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;
import org.osgi.service.component.annotations.Component;

/** Binds the pod through the {@code pods/binding} subresource; an API error is an error status. */
@Component(property = PluginFactory.NAME_PROPERTY + "=" + DefaultBinder.NAME)
public final class DefaultBinder implements PluginFactory {

    public static final String NAME = "DefaultBinder";

    @Override
    public Plugin create(PluginArgs args, Handle handle) {
        return new Binder(handle);
    }

    static final class Binder implements BindPlugin {
        private final Handle handle;

        Binder(Handle handle) {
            this.handle = handle;
        }

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
    }
}
