package io.hotsched.core.runtime;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.NodeInfoLister;
import io.hotsched.api.framework.Parallelizer;
import io.hotsched.api.framework.Plugin;
import io.hotsched.core.config.ConfigParser;
import io.hotsched.core.config.SchedulerConfig;
import io.hotsched.core.extender.Extenders;
import io.hotsched.core.registry.PluginHealth;
import io.hotsched.core.registry.PluginRegistry;
import io.hotsched.core.registry.Registration;
import io.hotsched.core.support.SchedulerFixture;
import io.hotsched.core.support.TestPlugins;
import io.hotsched.testing.SimplePlugins;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.function.Supplier;

/** Frameworks built straight from a configuration's first profile, without a scheduler around them. */
final class TestFrameworks {

    /** The configuration up to the first profile's plugins: its plugin sets follow, indented by four. */
    static final String PLUGINS = SchedulerFixture.HEADER + "- plugins:\n";

    private TestFrameworks() {}

    /** Version 1.0.0 of {@code name}, made by {@code create}. */
    static Registration plugin(String name, Function<Handle, Plugin> create) {
        return TestPlugins.registration(name, TestPlugins.factory(create), "1.0.0");
    }

    /** A registry serving the simple PrioritySort and DefaultBinder, and {@code more}. */
    static PluginRegistry registry(Registration... more) {
        PluginRegistry registry = new PluginRegistry(new PluginHealth(0));
        registry.add(plugin("PrioritySort", h -> new SimplePlugins.Sort()));
        registry.add(plugin("DefaultBinder", SimplePlugins.Binder::new));
        for (Registration r : more) {
            registry.add(r);
        }
        return registry;
    }

    /** Services without a cluster or nominated pods, over an empty snapshot. */
    static FrameworkServices services(int threads) {
        return services(new ParallelizerImpl(threads, "t"), Snapshot::new);
    }

    static FrameworkServices services(Parallelizer parallelizer, Supplier<NodeInfoLister> snapshot) {
        return new FrameworkServices(
                parallelizer, null, snapshot, n -> List.of(), Executors.newSingleThreadScheduledExecutor());
    }

    /** What the builder makes of the first profile of {@code yaml}. */
    static FrameworkBuilder.Result result(
            String yaml, PluginRegistry registry, FrameworkServices services, Extenders extenders) throws Exception {
        SchedulerConfig c = ConfigParser.parse(yaml, "s.yaml");
        return FrameworkBuilder.build(
                c.profiles().get(0), "s.yaml", c.percentageOfNodesToScore(), registry::serving, services, extenders);
    }

    /** The framework of the first profile of {@code yaml}; fails the test when it does not build. */
    static FrameworkImpl build(String yaml, PluginRegistry registry, FrameworkServices services) throws Exception {
        FrameworkBuilder.Result r = result(yaml, registry, services, Extenders.NONE);
        assertTrue(r instanceof FrameworkBuilder.Built, r.toString());
        return ((FrameworkBuilder.Built) r).framework();
    }
}
