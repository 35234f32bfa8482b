package io.hotsched.plugins.defaults.imagelocality;

import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PluginArgs;
import io.hotsched.api.framework.PluginFactory;
import org.osgi.service.component.annotations.Component;

/** Registers {@link ImageLocality}: one instance per profile that enables it. */
@Component(property = PluginFactory.NAME_PROPERTY + "=" + ImageLocality.NAME)
public final class ImageLocalityFactory implements PluginFactory {
    @Override
    public Plugin create(PluginArgs args, Handle handle) {
        return new ImageLocality(handle);
    }
}
