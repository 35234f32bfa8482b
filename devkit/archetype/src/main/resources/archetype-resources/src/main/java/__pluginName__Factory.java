package ${package};

import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.InvalidArgsException;
import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PluginArgs;
import io.hotsched.api.framework.PluginFactory;
import org.osgi.service.component.annotations.Component;

/**
 * Registers ${pluginName} as a {@link PluginFactory} service named by its
 * {@code hotsched.plugin.name} property; the scheduler calls it once per profile that enables the
 * plugin, with that profile's args.
 */
@Component(property = PluginFactory.NAME_PROPERTY + "=" + ${pluginName}Plugin.NAME)
public final class ${pluginName}Factory implements PluginFactory {

    @Override
    public Plugin create(PluginArgs args, Handle handle) throws InvalidArgsException {
        return new ${pluginName}Plugin(${pluginName}Args.from(args));
    }
}
