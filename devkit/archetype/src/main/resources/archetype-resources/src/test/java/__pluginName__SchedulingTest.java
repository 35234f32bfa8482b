package ${package};

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import io.hotsched.testkit.Placement;
import io.hotsched.testkit.PluginHarness;
import org.junit.jupiter.api.Test;

/**
 * The plugin in the real scheduler core (PreFilter, Filter, Score, NormalizeScore, Bind), beside
 * PrioritySort, NodeResourcesFit and DefaultBinder, over an in-memory cluster; no OSGi.
 */
class ${pluginName}SchedulingTest {

    private static PluginHarness harness(String args) {
        return PluginHarness.of(${pluginName}Plugin.NAME, new ${pluginName}Factory())
                .args(args)
                .weight(5)
                .nodes(Nodes.node("small").cpu("2").build(), Nodes.node("big").cpu("8").build());
    }

    @Test
    void spreadPicksTheNodeLeftWithTheMostFreeCpu() throws Exception {
        try (PluginHarness h = harness("strategy: spread")) {
            Placement p = h.schedule(Pods.pod("web").cpu("500m").build());
            assertEquals("big", p.nodeOf("web"), p.toString());
        }
    }

    @Test
    void packOutweighsNodeResourcesFit() throws Exception {
        try (PluginHarness h = harness("strategy: pack")) {
            Placement p = h.schedule(Pods.pod("web").cpu("500m").build());
            assertEquals("small", p.nodeOf("web"), p.toString());
        }
    }

    @Test
    void aPodThatWouldEatTheHeadroomWaitsWithTheReason() throws Exception {
        try (PluginHarness h = harness("minFreeMilliCpu: 1000")) {
            Placement p = h.schedule(Pods.pod("huge").cpu("7500m").build());
            assertNull(p.nodeOf("huge"), p.toString());
            assertTrue(p.reasonOf("huge").contains("node would keep less than 1000m cpu free"), p.toString());
        }
    }

    @Test
    void invalidArgsAreRefusedNamingTheField() {
        try (PluginHarness h = harness("strategy: fill")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, h::start);
            assertTrue(e.getMessage().contains("strategy"), e.getMessage());
        }
    }
}
