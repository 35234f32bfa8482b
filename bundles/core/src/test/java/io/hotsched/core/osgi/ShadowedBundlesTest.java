package io.hotsched.core.osgi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.core.registry.PluginHealth;
import io.hotsched.core.registry.PluginRegistry;
import io.hotsched.core.registry.Registration;
import io.hotsched.core.support.TestPlugins;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.osgi.framework.Version;

class ShadowedBundlesTest {

    private final PluginRegistry registry = new PluginRegistry(new PluginHealth(3));
    private final ShadowedBundles bundles = new ShadowedBundles();
    private final Registration v1 = TestPlugins.registration("Fit", (args, handle) -> null, "1.0.0");
    private final Registration v2 =
            new Registration("Fit", v1.factory(), v1.bundle(), Version.parseVersion("2.0.0"), 7);

    @Test
    void aShadowedVersionPresentStopsServingAndItsPromoteMakesItServeThoughNotTheHighest() {
        registry.add(v1);
        registry.add(v2);
        assertEquals(v2, registry.serving("Fit").orElseThrow(), "the highest serves");

        List<String> changed = bundles.set(v2.bundle(), v2.version(), true, List.of(v1, v2), registry, null);
        assertEquals(List.of("put " + v2.describe() + " in shadow"), changed);
        assertEquals(v1, registry.serving("Fit").orElseThrow());
        assertEquals(v2, registry.shadow("Fit").orElseThrow());
        assertEquals(
                List.of(),
                bundles.set(v2.bundle(), v2.version(), true, List.of(v1, v2), registry, null),
                "again: no change");

        changed = bundles.set(v2.bundle(), v2.version(), false, List.of(v1, v2), registry, null);
        assertEquals(List.of("promoted " + v2.describe()), changed);
        assertEquals(v2, registry.serving("Fit").orElseThrow());
        assertTrue(registry.shadow("Fit").isEmpty());
    }

    @Test
    void aVersionSetInShadowBeforeItArrivesIsKnownByItsBundleAndVersion() {
        bundles.set(v1.bundle(), Version.parseVersion("1.0"), true, List.of(), registry, null);
        assertTrue(bundles.containsKey(v1.bundle(), v1.version()), "1.0 and 1.0.0 are one version");
        assertFalse(bundles.containsKey(v1.bundle(), v2.version()));
        bundles.set(v1.bundle(), v1.version(), false, List.of(), registry, null);
        assertFalse(bundles.containsKey(v1.bundle(), v1.version()));
    }

    @Test
    void theOnlyVersionPutInShadowSaysThatTheProfilesWait() {
        registry.add(v1);
        List<String> changed = bundles.set(v1.bundle(), v1.version(), true, List.of(v1), registry, null);
        assertEquals(
                List.of("put " + v1.describe()
                        + " in shadow (no other version serves: the profiles using Fit wait for one)"),
                changed);
        assertTrue(registry.serving("Fit").isEmpty());
    }
}
