package io.hotsched.plugins.dynamicresources;

import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.InvalidArgsException;
import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PluginArgs;
import io.hotsched.api.framework.PluginFactory;
import org.osgi.service.component.annotations.Component;

/** Registers {@link DynamicResources}: one instance per profile that enables it. */
@Component(property = PluginFactory.NAME_PROPERTY + "=" + DynamicResources.NAME)
public final class DynamicResourcesFactory implements PluginFactory {
    @Override
    public Plugin create(PluginArgs args, Handle handle) throws InvalidArgsException {
        return DynamicResources.create(args, handle);
    }
}
