package io.hotsched.core.support;

import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.core.registry.Registration;
import java.util.concurrent.atomic.AtomicLong;
import org.osgi.framework.Version;

/** Registrations and factories of small plugins for core tests. */
public final class TestPlugins {

    private static final AtomicLong IDS = new AtomicLong(1000);

    private TestPlugins() {}

    public static Registration registration(String name, PluginFactory f, String version) {
        return new Registration(name, f, "test.bundle." + name, Version.parseVersion(version), IDS.incrementAndGet());
    }

    /** The simple plugin set of the testing bundle, under the names the tests use. */
    public static final class Sort extends io.hotsched.testing.SimplePlugins.Sort {}

    public static final class CpuFit extends io.hotsched.testing.SimplePlugins.CpuFit {}

    public static final class Binder extends io.hotsched.testing.SimplePlugins.Binder {
        public Binder(Handle handle) {
            super(handle);
        }
    }

    public static PluginFactory factory(java.util.function.Function<Handle, Plugin> create) {
        return (args, handle) -> create.apply(handle);
    }
}
