package io.hotsched.core.scheduler;

import static io.hotsched.core.support.SchedulerFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.hotsched.core.support.SchedulerFixture;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A pod whose request is not a quantity is told why on the pod, and the pods after it are scheduled. */
class UnreadablePodTest {

    private static final String WHY = "pod cannot be scheduled: it cannot be read: cpu: Invalid value: \"12xyz\":"
            + " quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

    @Test
    void theUnreadablePodGetsItsReasonAndSchedulingGoesOn() throws Exception {
        try (SchedulerFixture f = new SchedulerFixture().withBasePlugins()) {
            f.cluster.addNode(Nodes.node("n1").cpu("8").build());
            f.start(SchedulerFixture.BASE);

            f.cluster.addPod(Pods.pod("bad").cpu("12xyz").build());
            f.cluster.addPod(Pods.pod("good").cpu("1").build());

            await("good bound", () -> f.cluster.bindings().size() == 1);
            await("bad told why", () -> condition(f.cluster.pod("default", "bad")) != null);
            PodCondition c = condition(f.cluster.pod("default", "bad"));
            assertEquals("SchedulerError", c.getReason());
            assertEquals(WHY, c.getMessage());
            f.cluster.awaitDelivered();
            List<Event> events = f.cluster.events().stream()
                    .filter(e -> e.getInvolvedObject().getName().equals("bad"))
                    .toList();
            assertEquals(1, events.size(), "one event, not one per status write: " + events);
            assertEquals("FailedScheduling", events.get(0).getReason());
            assertEquals(WHY, events.get(0).getMessage());
            assertEquals("default/good", f.cluster.bindings().get(0).podKey());
        }
    }

    private static PodCondition condition(Pod p) {
        if (p == null || p.getStatus() == null || p.getStatus().getConditions() == null) {
            return null;
        }
        return p.getStatus().getConditions().stream()
                .filter(c -> "PodScheduled".equals(c.getType()))
                .findFirst()
                .orElse(null);
    }
}
