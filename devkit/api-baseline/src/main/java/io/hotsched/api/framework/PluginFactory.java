package io.hotsched.api.framework;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Creates instances of one plugin. A bundle registers it as an OSGi service with the property
 * {@value #NAME_PROPERTY} set to the plugin's name; the framework calls {@link #create} once per
 * profile that enables the name, whenever it builds that profile's framework (at start, when the
 * configuration changes, when a factory of that name comes or goes).
 *
 * <p>Two bundles may register a factory for the same name (two versions side by side): the one of
 * the highest bundle version serves, the other stands by.
 */
@ConsumerType
public interface PluginFactory {

    /** Service property carrying the plugin's name. */
    String NAME_PROPERTY = "hotsched.plugin.name";

    /**
     * Creates an instance for one profile. Validates {@code args} and throws
     * {@link InvalidArgsException} naming the field when they are not valid: the configuration is
     * then refused and the previous one keeps running. Must not block; may be called on any
     * thread.
     */
    Plugin create(PluginArgs args, Handle handle) throws InvalidArgsException;
}
