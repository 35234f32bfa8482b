package io.hotsched.core.registry;

import io.hotsched.api.framework.PluginFactory;
import org.osgi.framework.Version;

/**
 * One registered plugin factory: the plugin name it serves, and the bundle (symbolic name and
 * version) that provides it.
 *
 * @param serviceId orders registrations of equal version (the older service wins)
 */
public record Registration(String name, PluginFactory factory, String bundle, Version version, long serviceId) {

    /** {@code name (bundle version)}, for messages. */
    public String describe() {
        return name + " (" + bundle + " " + version + ")";
    }
}
