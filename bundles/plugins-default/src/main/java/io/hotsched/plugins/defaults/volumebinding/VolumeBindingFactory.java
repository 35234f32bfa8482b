package io.hotsched.plugins.defaults.volumebinding;

import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.InvalidArgsException;
import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PluginArgs;
import io.hotsched.api.framework.PluginFactory;
import org.osgi.service.component.annotations.Component;

/** Registers {@link VolumeBinding}: one instance per profile that enables it. */
@Component(property = PluginFactory.NAME_PROPERTY + "=" + VolumeBinding.NAME)
public final class VolumeBindingFactory implements PluginFactory {
    @Override
    public Plugin create(PluginArgs args, Handle handle) throws InvalidArgsException {
        return VolumeBinding.create(args, handle);
    }
}
