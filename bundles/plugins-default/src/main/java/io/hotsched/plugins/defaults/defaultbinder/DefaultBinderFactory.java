package io.hotsched.plugins.defaults.defaultbinder;

import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PluginArgs;
import io.hotsched.api.framework.PluginFactory;
import org.osgi.service.component.annotations.Component;

/** Registers {@link DefaultBinder}: one instance per profile that enables it. */
@Component(property = PluginFactory.NAME_PROPERTY + "=" + DefaultBinder.NAME)
public final class DefaultBinderFactory implements PluginFactory {
    @Override
    public Plugin create(PluginArgs args, Handle handle) {
        return new DefaultBinder(handle);
    }
}
