package io.hotsched.plugins.defaults.volumezone;

import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PluginArgs;
import io.hotsched.api.framework.PluginFactory;
import org.osgi.service.component.annotations.Component;

/** Registers {@link VolumeZone}: one instance per profile that enables it. */
@Component(property = PluginFactory.NAME_PROPERTY + "=" + VolumeZone.NAME)
public final class VolumeZoneFactory implements PluginFactory {
    @Override
    public Plugin create(PluginArgs args, Handle handle) {
        return new VolumeZone(handle);
    }
}
