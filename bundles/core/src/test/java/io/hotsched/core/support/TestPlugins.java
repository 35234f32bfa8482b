package io.hotsched.core.support;

import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.api.framework.ScorePlugin;
import io.hotsched.core.registry.Registration;
import io.hotsched.testing.OnePoint;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.osgi.framework.Version;

/** Registrations and factories of small plugins for core tests. */
public final class TestPlugins {

    private static final AtomicLong IDS = new AtomicLong(1000);

    private TestPlugins() {}

    public static Registration registration(String name, PluginFactory f, String version) {
        return new Registration(name, f, "test.bundle." + name, Version.parseVersion(version), IDS.incrementAndGet());
    }

    public static PluginFactory factory(Function<Handle, Plugin> create) {
        return (args, handle) -> create.apply(handle);
    }

    /** "Prefer": scores {@code node} 100 and every other node 0. */
    public static ScorePlugin prefer(String node) {
        return new OnePoint.Score("Prefer", (state, pod, n) -> n.name().equals(node) ? 100L : 0L);
    }

    /**
     * Where a plugin call stops until the test lets it go: {@link #entered} opens when a call
     * arrives, {@link #release} lets every call through. Bounded, so a failed test cannot leave a
     * scheduler thread stuck forever.
     */
    public static final class Hold {
        public final CountDownLatch entered = new CountDownLatch(1);
        public final CountDownLatch release = new CountDownLatch(1);

        public void here() {
            entered.countDown();
            try {
                release.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        public boolean awaitEntered() throws InterruptedException {
            return entered.await(10, TimeUnit.SECONDS);
        }
    }
}
