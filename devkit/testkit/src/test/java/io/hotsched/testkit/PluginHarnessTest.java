package io.hotsched.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.api.framework.InvalidArgsException;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.api.framework.Status;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.OnePoint;
import io.hotsched.testing.Pods;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PluginHarnessTest {

    /** "Zone": keeps nodes of the zone its args name (required), scores none. */
    private static final PluginFactory ZONE = (args, handle) -> {
        Object zone = args.raw().get("zone");
        if (!(zone instanceof String z)) {
            throw new InvalidArgsException("zone", zone, "a zone name");
        }
        return new OnePoint.Filter(
                "Zone",
                (state, pod, node) ->
                        z.equals(node.node().getMetadata().getLabels().get("zone"))
                                ? Status.SUCCESS
                                : Status.unschedulable("node is not in zone " + z));
    };

    @Test
    void thePluginFiltersBesideTheBasePluginsWithItsArgs() throws Exception {
        try (PluginHarness h = PluginHarness.of("Zone", ZONE).args("zone: b")) {
            h.nodes(
                    Nodes.node("a1").cpu("8").label("zone", "a").build(),
                    Nodes.node("b1").cpu("2").label("zone", "b").build(),
                    Nodes.node("b2").cpu("4").label("zone", "b").build());
            Placement p = h.schedule(
                    Pods.pod("small").cpu("1").build(), Pods.pod("big").cpu("6").build());
            // NodeResourcesFit prefers the emptier of the zone's nodes; nothing in zone b holds 6 cpu
            assertEquals("b2", p.nodeOf("small"), p.toString());
            assertNull(p.nodeOf("big"), p.toString());
            assertTrue(p.reasonOf("big").contains("node is not in zone b"), p.toString());
            assertTrue(p.reasonOf("big").contains("Insufficient cpu"), p.toString());
            assertEquals(1, h.cluster().bindings().size());
            assertEquals(
                    "bound to b2",
                    h.explain("small").outcome(),
                    h.explain("small").toString());
        }
    }

    @Test
    void invalidArgsRefuseTheConfigurationNamingTheField() {
        try (PluginHarness h = PluginHarness.of("Zone", ZONE).args("zone: 7")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, h::start);
            // the scheduler's message: where in the configuration, which plugin, what is wrong
            assertTrue(
                    e.getMessage().contains("pluginConfig[0].args.zone: plugin Zone: invalid value 7"), e.getMessage());
        }
    }

    @Test
    void testArgsBindAsTheSchedulerDoes() {
        record Written(String zone) {}
        InvalidArgsException e = assertThrows(
                InvalidArgsException.class,
                () -> TestArgs.of(Map.of("zones", "a")).as(Written.class));
        assertTrue(e.getMessage().contains("zones"), e.getMessage());
    }
}
