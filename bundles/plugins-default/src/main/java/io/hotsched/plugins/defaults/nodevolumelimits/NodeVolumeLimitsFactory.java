package io.hotsched.plugins.defaults.nodevolumelimits;

import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PluginArgs;
import io.hotsched.api.framework.PluginFactory;
import org.osgi.service.component.annotations.Component;

/** Registers {@link NodeVolumeLimits}: one instance per profile that enables it. */
@Component(property = PluginFactory.NAME_PROPERTY + "=" + NodeVolumeLimits.NAME)
public final class NodeVolumeLimitsFactory implements PluginFactory {
    @Override
    public Plugin create(PluginArgs args, Handle handle) {
        return new NodeVolumeLimits(handle);
    }
}
