package io.hotsched.core.runtime;

import io.hotsched.api.framework.Plugin;
import io.hotsched.core.registry.Registration;
import java.util.concurrent.atomic.AtomicBoolean;

/** A plugin instance of one framework, with the registration (bundle, version) it came from. */
public final class PluginInstance {

    private final String name;
    private final Plugin plugin;
    private final Registration registration;
    private final AtomicBoolean closed = new AtomicBoolean();

    public PluginInstance(String name, Plugin plugin, Registration registration) {
        this.name = name;
        this.plugin = plugin;
        this.registration = registration;
    }

    /** The configured name (what profiles and messages use). */
    public String name() {
        return name;
    }

    public Plugin plugin() {
        return plugin;
    }

    public Registration registration() {
        return registration;
    }

    /** Closes the instance once; a plugin's exception on close is returned, not thrown. */
    RuntimeException close() {
        if (!closed.compareAndSet(false, true)) {
            return null;
        }
        try {
            plugin.close();
            return null;
        } catch (RuntimeException e) {
            return e;
        }
    }

    @Override
    public String toString() {
        return registration == null ? name : registration.describe();
    }
}
