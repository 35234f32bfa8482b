package io.hotsched.api.framework;

import java.util.Map;
import org.osgi.annotation.versioning.ProviderType;

/** The {@code pluginConfig} arguments of one plugin in one profile, as the configuration gives them. */
@ProviderType
public interface PluginArgs {

    /** True when the profile gives no arguments for the plugin. */
    boolean isEmpty();

    /** The arguments as parsed from the configuration (maps, lists, strings, numbers, booleans). */
    Map<String, Object> raw();

    /**
     * The arguments bound to {@code type} (a record or a bean with a no-argument constructor whose
     * field defaults are the plugin's defaults): fields the configuration names overwrite the
     * defaults. An unknown field or a value of the wrong type is an {@link InvalidArgsException}
     * naming the field.
     */
    <T> T as(Class<T> type) throws InvalidArgsException;
}
