package io.hotsched.plugins.defaults.defaultpreemption;

import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.InvalidArgsException;
import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PluginArgs;
import io.hotsched.api.framework.PluginFactory;
import org.osgi.service.component.annotations.Component;

/** Registers {@link DefaultPreemption}: one instance per profile that enables it. */
@Component(property = PluginFactory.NAME_PROPERTY + "=" + DefaultPreemption.NAME)
public final class DefaultPreemptionFactory implements PluginFactory {
    @Override
    public Plugin create(PluginArgs args, Handle handle) throws InvalidArgsException {
        return DefaultPreemption.create(args, handle);
    }
}
