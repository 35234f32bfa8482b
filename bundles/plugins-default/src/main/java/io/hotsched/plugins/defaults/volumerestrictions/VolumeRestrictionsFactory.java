package io.hotsched.plugins.defaults.volumerestrictions;

import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PluginArgs;
import io.hotsched.api.framework.PluginFactory;
import org.osgi.service.component.annotations.Component;

/** Registers {@link VolumeRestrictions}: one instance per profile that enables it. */
@Component(property = PluginFactory.NAME_PROPERTY + "=" + VolumeRestrictions.NAME)
public final class VolumeRestrictionsFactory implements PluginFactory {
    @Override
    public Plugin create(PluginArgs args, Handle handle) {
        return new VolumeRestrictions(handle);
    }
}
