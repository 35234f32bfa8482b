package io.hotsched.plugins.defaults.schedulinggates;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.PodBuilder;
import io.hotsched.api.framework.Code;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;
import io.hotsched.testing.Pods;
import org.junit.jupiter.api.Test;

/** Upstream's message lists the gates as Go prints a string slice: space-separated in brackets. */
class SchedulingGatesTest {

    @Test
    void aPodWithGatesWaitsAndTheMessageNamesThem() {
        PodInfo gated = PodInfo.of(new PodBuilder(Pods.pod("p").build())
                .editSpec()
                .addNewSchedulingGate()
                .withName("example.com/a")
                .endSchedulingGate()
                .addNewSchedulingGate()
                .withName("example.com/b")
                .endSchedulingGate()
                .endSpec()
                .build());
        Status st = new SchedulingGates().preEnqueue(gated);
        assertEquals(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, st.code());
        assertEquals("waiting for scheduling gates: [example.com/a example.com/b]", st.message());
    }

    @Test
    void aPodWithoutGatesGoesIn() {
        assertTrue(new SchedulingGates().preEnqueue(Pods.pod("p").info()).isSuccess());
    }
}
