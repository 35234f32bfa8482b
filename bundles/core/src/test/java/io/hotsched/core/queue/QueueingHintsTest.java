package io.hotsched.core.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.api.framework.ActionType;
import io.hotsched.api.framework.ClusterEvent;
import io.hotsched.api.framework.ClusterEventWithHint;
import io.hotsched.api.framework.QueueingHint;
import io.hotsched.api.framework.QueueingHintFunction;
import io.hotsched.testing.Pods;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class QueueingHintsTest {

    private static final String PLUGIN = "NeedsGone";

    /** What the hints reported as faults: profile, plugin, message. */
    private final List<String> faults = new ArrayList<>();

    /** Hints of a profile "p1" whose one plugin asks about added nodes with {@code hint}. */
    private QueueingHints hints(QueueingHintFunction hint) {
        Map<String, List<ClusterEventWithHint>> events = Map.of(
                PLUGIN, List.of(new ClusterEventWithHint(ClusterEvent.of(ClusterEvent.NODE, ActionType.ADD), hint)));
        return new QueueingHints(
                profile -> events,
                (profile, plugin, message) -> faults.add(profile + " | " + plugin + " | " + message));
    }

    /** Whether a node added may help pod p of profile p1, which the plugin rejected. */
    private static boolean nodeAddedMayHelp(QueueingHints hints) {
        QueuedPod qp = new QueuedPod(Pods.pod("p").scheduler("p1").info(), Instant.EPOCH);
        qp.unschedulablePlugins = Set.of(PLUGIN);
        return hints.isPodWorthRequeuing(qp, ClusterEvent.NODE, ActionType.ADD, null, new Object());
    }

    /** A hint that throws {@code thrown} means Queue, and is reported as a fault of its plugin. */
    private void thrownCountsAsQueueAndAsAFault(Throwable thrown, String shown) {
        assertTrue(nodeAddedMayHelp(hints((pod, before, after) -> {
            if (thrown instanceof Error e) {
                throw e;
            }
            throw (RuntimeException) thrown;
        })));
        assertEquals(
                List.of("p1 | NeedsGone | running the queueing hint of plugin \"NeedsGone\" for Node ADD of pod"
                        + " default/p: " + shown),
                faults);
    }

    @Test
    void aHintOfABundleMissingAClassCountsAsQueueAndAsAFaultOfItsPlugin() {
        thrownCountsAsQueueAndAsAFault(
                new NoClassDefFoundError("io/acme/Gone"), "java.lang.NoClassDefFoundError: io/acme/Gone");
    }

    @Test
    void aHintThatThrowsCountsAsQueueAndAsAFaultOfItsPlugin() {
        thrownCountsAsQueueAndAsAFault(
                new IllegalStateException("no cache yet"), "java.lang.IllegalStateException: no cache yet");
    }

    @Test
    void aHintThatAnswersIsFollowedAndNoFault() {
        assertFalse(nodeAddedMayHelp(hints((pod, before, after) -> QueueingHint.SKIP)));
        assertTrue(nodeAddedMayHelp(hints((pod, before, after) -> QueueingHint.QUEUE)));
        assertEquals(List.of(), faults);
    }
}
