package io.hotsched.plugins.defaults.queuesort;

import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.InvalidArgsException;
import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PluginArgs;
import io.hotsched.api.framework.PluginFactory;
import org.osgi.service.component.annotations.Component;

/** Registers {@link PrioritySort}: one instance per profile that enables it. */
@Component(property = PluginFactory.NAME_PROPERTY + "=" + PrioritySort.NAME)
public final class PrioritySortFactory implements PluginFactory {
    @Override
    public Plugin create(PluginArgs args, Handle handle) throws InvalidArgsException {
        return new PrioritySort();
    }
}
