package io.hotsched.core.hostile;

import static io.hotsched.core.support.SchedulerFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.hotsched.api.framework.PluginFactory;
import io.hotsched.api.framework.Status;
import io.hotsched.core.registry.Registration;
import io.hotsched.core.support.SchedulerFixture;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.OnePoint;
import io.hotsched.testing.Pods;
import org.junit.jupiter.api.Test;
import org.osgi.framework.Version;

/**
 * Issue 26's hostile plugin bundles as the core meets them: factories that throw or make nothing,
 * plugin classes that cannot be loaded or initialized, and one plugin name from two bundles. The
 * profile using the plugin pauses with the reason (what {@code /readyz}, {@code sched:profiles} and
 * the log say), another profile keeps binding.
 */
class HostileFactoriesTest {

    /**
     * Starts a profile waiting for {@code name}, then registers it made by {@code factory}, as when its
     * bundle arrives, and returns what the profile then says of itself; the plain profile binds
     * throughout. (In the configuration scheduler.yaml first applies, the same problem refuses the
     * configuration with these words.)
     */
    private static String paused(String name, PluginFactory factory) throws Exception {
        try (SchedulerFixture f = new SchedulerFixture().withBasePlugins()) {
            f.cluster.addNode(Nodes.node("n1").cpu("4").build());
            f.start(SchedulerFixture.HEADER
                    + SchedulerFixture.profile("default-scheduler", name)
                    + SchedulerFixture.PLAIN_PROFILE);
            assertEquals("paused: waiting for plugin(s) " + name, f.describe());
            f.add(name, factory, "1.0.0");
            await("the profile tried the plugin", () -> !f.describe().startsWith("paused: waiting"));
            f.cluster.addPod(Pods.pod("plain").scheduler("plain").cpu("100m").build());
            await("the plain profile binds", () -> f.cluster.bindings().size() == 1);
            return f.describe();
        }
    }

    private static final String PAUSED = "paused: scheduler.yaml: profiles[0].plugins: plugin ";

    @Test
    void aFactoryThatThrows() throws Exception {
        assertEquals(
                PAUSED + "Hostile (test.bundle.Hostile 1.0.0) failed to start: java.lang.IllegalStateException:"
                        + " no license file",
                paused("Hostile", (args, handle) -> {
                    throw new IllegalStateException("no license file");
                }));
    }

    @Test
    void aFactoryThatMakesNothing() throws Exception {
        assertEquals(
                PAUSED + "Hostile (test.bundle.Hostile 1.0.0) created no instance",
                paused("Hostile", (args, handle) -> null));
    }

    @Test
    void aPluginClassWhoseStaticInitializerThrows() throws Exception {
        assertEquals(
                PAUSED + "FailsToInitialize (test.bundle.FailsToInitialize 1.0.0) failed to start:"
                        + " java.lang.ExceptionInInitializerError, caused by java.lang.IllegalStateException: no limit"
                        + " configured",
                paused("FailsToInitialize", (args, handle) -> new FailsToInitialize()));
    }

    @Test
    void aPluginClassThatNeedsAMissingClassToStart() throws Exception {
        assertEquals(
                PAUSED + "NeedsGoneToStart (test.bundle.NeedsGoneToStart 1.0.0) failed to start:"
                        + " java.lang.NoClassDefFoundError: io/hotsched/core/hostile/Gone",
                paused("NeedsGoneToStart", HidingLoader.factory(NeedsGoneToStart.class)));
    }

    /**
     * A LinkageError from a plugin's call is the plugin's failure like any exception: the guarded
     * call names the plugin and the point (it once caught RuntimeException only, and the pod read the
     * bare error, not counted against the plugin).
     */
    @Test
    void aPluginClassThatNeedsAMissingClassToFilter() throws Exception {
        assertEquals(
                "pending: running \"Hostile\" filter plugin: java.lang.NoClassDefFoundError:"
                        + " io/hotsched/core/hostile/Gone",
                HostilePluginsTest.run(HidingLoader.factory(NeedsGone.class), "100m", false));
    }

    @Test
    void onePluginNameFromTwoBundlesIsNamedAndOneServes() throws Exception {
        try (SchedulerFixture f = new SchedulerFixture().withBasePlugins()) {
            f.scheduler.pluginAdded(fit("io.acme.fit", "1.0.0", 9001));
            assertNull(f.registry.clash("Fit"), "one bundle: no clash");
            f.scheduler.pluginAdded(fit("io.other.fit", "2.0.0", 9002));
            assertEquals(
                    "Plugin Fit is provided by 2 different bundles (io.other.fit 2.0.0, io.acme.fit 1.0.0); only"
                            + " io.other.fit 2.0.0 serves (the highest version), the others stand by. Rename the"
                            + " plugin in all but one of them, or remove the copies",
                    f.registry.clash("Fit"));
            assertEquals("io.other.fit", f.registry.serving("Fit").orElseThrow().bundle());
        }
    }

    private static Registration fit(String bundle, String version, long serviceId) {
        return new Registration(
                "Fit",
                (args, handle) -> new OnePoint.Filter("Fit", (state, pod, node) -> Status.SUCCESS),
                bundle,
                Version.parseVersion(version),
                serviceId);
    }
}
