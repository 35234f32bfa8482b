package io.hotsched.kube;

import static io.hotsched.kube.ApiServerFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Event;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.api.framework.Status;
import io.hotsched.core.scheduler.Scheduler;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.OnePoint;
import io.hotsched.testing.Pods;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The scheduler over HTTP against the embedded API server: informers in, bindings, conditions and
 * events out, counted from the API server's side by a watcher that records every binding.
 */
class KubePathTest {

    private final CountDownLatch held = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private ApiServerFixture api;
    private Scheduler scheduler;

    @BeforeEach
    void start() throws Exception {
        api = new ApiServerFixture(
                Nodes.node("n1").cpu("2").build(), Nodes.node("n2").cpu("2").build());
        Map<String, PluginFactory> plugins = ConnectedScheduler.simplePlugins();
        // holds pods named "held-*" in PreBind until released
        plugins.put(
                "HoldPreBind",
                (a, h) -> new OnePoint.PreBind("HoldPreBind", (s, pod, node) -> {
                    if (pod.name().startsWith("held-")) {
                        held.countDown();
                        try {
                            release.await(20, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    return Status.SUCCESS;
                }));
        scheduler = api.connect(plugins).scheduler;
    }

    @AfterEach
    void stop() {
        release.countDown();
        api.close();
    }

    /** Bound once, confirmed by the informer, nothing left to retry: what comes later cannot change. */
    private void awaitSettled(int scheduled) throws InterruptedException {
        await(
                scheduled + " scheduled and settled",
                () -> scheduler.counters().get("scheduled") == scheduled
                        && scheduler.cache().assumedCount() == 0
                        && scheduler.queue().entries().isEmpty());
    }

    @Test
    void ourPodsAreBoundAndSeenBoundOthersUntouched() throws Exception {
        for (int i = 0; i < 10; i++) {
            api.create(Pods.pod("p" + i).cpu("100m").build());
        }
        api.create(Pods.pod("theirs").scheduler("someone-else").cpu("100m").build());
        await("10 bound, seen by a watcher", () -> api.seenBound() == 10);
        for (int i = 0; i < 10; i++) {
            assertTrue(api.nodeOf("p" + i) != null);
        }
        await("theirs delivered to the scheduler", () -> api.scheduler.delivered("Pod", "default/theirs") != null);
        awaitSettled(10);
        assertNull(api.nodeOf("theirs"));
        List<Event> scheduled = api.events("Scheduled");
        assertEquals(10, scheduled.size());
        assertTrue(scheduled.get(0).getMessage().startsWith("Successfully assigned default/p"));
    }

    @Test
    void anUnschedulablePodGetsTheConditionAndOneEventWithTheFitErrorText() throws Exception {
        api.create(Pods.pod("big").cpu("3").build());
        String expected = "0/2 nodes are available: 2 Insufficient cpu.";
        await("condition", () -> api.hasScheduledCondition("big", expected));
        var c = api.get("big").getStatus().getConditions().stream()
                .filter(x -> "PodScheduled".equals(x.getType()))
                .findFirst()
                .orElseThrow();
        assertEquals("False", c.getStatus());
        assertEquals("Unschedulable", c.getReason());
        await("event", () -> !api.events("FailedScheduling").isEmpty());
        // a node event that changes nothing for the pod retries it: the same failure again is
        // aggregated into the same event (a new node would change the message, and so the event)
        api.client.nodes().withName("n1").edit(n -> {
            n.getMetadata().getLabels().put("touched", "1");
            return n;
        });
        await(
                "the repeat counted",
                () -> api.events("FailedScheduling").stream().anyMatch(e -> e.getCount() != null && e.getCount() >= 2));
        List<Event> failed = api.events("FailedScheduling");
        assertEquals(1, failed.size(), "one event, counted");
        assertEquals(expected, failed.get(0).getMessage());
    }

    /** Errors are retried; a conflict is not, and its pod is bound on a later attempt: either way once, counted once. */
    @ParameterizedTest
    @CsvSource({"2, 500", "1, 409"})
    void aBindAnsweredWithAnErrorOrAConflictEndsBoundExactlyOnce(int times, int code) throws Exception {
        api.server.failNextBinds(times, code);
        api.create(Pods.pod("p").cpu("100m").build());
        await("bound", () -> api.nodeOf("p") != null);
        awaitSettled(1);
        assertEquals(1, api.seenBound());
        assertEquals(100, scheduler.cache().node(api.nodeOf("p")).requested().milliCpu());
    }

    @Test
    void aPodDeletedWhileBindingIsForgottenWithoutError() throws Exception {
        api.create(Pods.pod("held-1").cpu("500m").build());
        assertTrue(held.await(20, TimeUnit.SECONDS));
        api.delete("held-1");
        await("deleted", () -> api.get("held-1") == null);
        release.countDown();
        await(
                "forgotten",
                () -> scheduler.cache().podCount() == 0
                        && scheduler.queue().entries().isEmpty());
        assertEquals(0, scheduler.counters().get("errors"));
        assertEquals(
                0,
                scheduler.cache().node("n1").requested().milliCpu()
                        + scheduler.cache().node("n2").requested().milliCpu());
    }

    @Test
    void aPodDeletedWhileQueuedIsForgotten() throws Exception {
        api.create(Pods.pod("big").cpu("3").build());
        await("unschedulable", () -> scheduler.queue().counts().get("unschedulable") == 1);
        api.delete("big");
        await("forgotten", () -> scheduler.queue().entries().isEmpty());
    }
}
