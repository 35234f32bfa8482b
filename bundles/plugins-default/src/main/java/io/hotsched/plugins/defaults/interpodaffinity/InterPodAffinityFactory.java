package io.hotsched.plugins.defaults.interpodaffinity;

import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.InvalidArgsException;
import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PluginArgs;
import io.hotsched.api.framework.PluginFactory;
import org.osgi.service.component.annotations.Component;

/** Registers {@link InterPodAffinity}: one instance per profile that enables it. */
@Component(property = PluginFactory.NAME_PROPERTY + "=" + InterPodAffinity.NAME)
public final class InterPodAffinityFactory implements PluginFactory {
    @Override
    public Plugin create(PluginArgs args, Handle handle) throws InvalidArgsException {
        return InterPodAffinity.create(args, handle);
    }
}
