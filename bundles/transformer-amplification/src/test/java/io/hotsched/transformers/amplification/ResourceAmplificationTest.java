package io.hotsched.transformers.amplification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.ext.Transformation;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Ratios multiply the raw allocatable in what Filter and Score see; the cached node stays as it is. */
class ResourceAmplificationTest {

    private final ResourceAmplification t = new ResourceAmplification();

    private static NodeInfo node(String cpu, String ratios, String raw) {
        Nodes n = Nodes.node("n1").cpu(cpu).memory("16Gi");
        if (ratios != null) {
            n.annotation(ResourceAmplification.RATIO_ANNOTATION, ratios);
        }
        if (raw != null) {
            n.annotation(ResourceAmplification.RAW_ALLOCATABLE_ANNOTATION, raw);
        }
        NodeInfo info = new NodeInfo(n.build());
        info.setGeneration(1);
        return info;
    }

    @Test
    void aRatioMultipliesTheAllocatableOfItsResourceOnly() {
        NodeInfo n = node("4", "{\"cpu\": 1.5}", null);
        NodeInfo seen = t.transform(n);
        assertEquals(6000, seen.allocatable().milliCpu());
        assertEquals(16L << 30, seen.allocatable().memory(), "memory has no ratio");
        assertEquals(4000, n.allocatable().milliCpu(), "the cached node is not changed");
    }

    @Test
    void theRawAllocatableIsTheBaseSoAnAmplifiedNodeIsNotAmplifiedTwice() {
        // koord-manager already wrote 8 cpu (4 raw × 2): the transformer sees 8, not 16
        assertEquals(
                8000,
                t.transform(node("8", "{\"cpu\": 2}", "{\"cpu\": \"4\"}"))
                        .allocatable()
                        .milliCpu());
    }

    @Test
    void nodesWithoutRatiosOrWithRatiosOfOneOrBrokenJsonAreLeftAsTheyAre() {
        for (NodeInfo n : List.of(
                node("4", null, null),
                node("4", "{\"cpu\": 1}", null),
                node("4", "{cpu", null),
                node("4", "{\"cpu\": \"x\"}", null))) {
            assertSame(n, t.transform(n));
        }
    }

    @Test
    void scoringSeesTheSameReplacementsInTheSameOrder() {
        NodeInfo plain = node("4", null, null);
        NodeInfo amplified = node("4", "{\"cpu\": 3}", null);
        Transformation tr = t.beforeScore(new CycleState(), Pods.pod("p").info(), List.of(plain, amplified));
        assertSame(plain, tr.nodes().get(0));
        assertEquals(12000, tr.nodes().get(1).allocatable().milliCpu());
        assertSame(
                Transformation.UNCHANGED,
                t.beforeScore(new CycleState(), Pods.pod("p").info(), List.of(plain)),
                "nothing to change allocates nothing");
    }
}
