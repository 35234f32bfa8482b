package io.hotsched.plugins.defaults.defaultpreemption;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.PodBuilder;
import io.hotsched.api.framework.Code;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;
import io.hotsched.testing.FakeHandle;
import io.hotsched.testing.Pods;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * SchedulerAsyncPreemption's evictions after the cycle: the preemptor is kept out of the queue by
 * PreEnqueue until they are done, victims already being deleted get no call, and a failed
 * eviction stops the rest and activates the preemptor.
 */
class AsyncPreemptionTest {

    private final FakeHandle handle = new FakeHandle();
    private final Evaluator evaluator =
            new Evaluator(handle, DefaultPreemption.NAME, new CandidateLimits(10, 100), n -> 0);
    private final DefaultPreemption plugin = new DefaultPreemption(evaluator);
    private final PodInfo preemptor =
            Pods.pod("high").uid("uid-high").priority(1000).info();

    private static Candidate onN1(PodInfo... victims) {
        return new Candidate("n1", List.of(victims), 0);
    }

    private static PodInfo victim(String name) {
        return Pods.pod(name).uid("uid-" + name).priority(0).node("n1").info();
    }

    @Test
    void thePreemptorWaitsOutOfTheQueueUntilItsVictimsAreDeleted() {
        evaluator.eviction().later(onN1(victim("a"), victim("b")), preemptor);

        Status st = plugin.preEnqueue(preemptor);
        assertEquals(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, st.code());
        assertEquals("waiting for the preemption for this pod to be finished", st.message());
        assertEquals(List.of(), handle.cluster().deleted(), "nothing deleted in the cycle");
        assertTrue(plugin.preEnqueue(victim("other")).isSuccess(), "other pods are not held");

        assertEquals(1, handle.runBackground());
        assertEquals(List.of("default/a", "default/b"), handle.cluster().deleted());
        assertTrue(plugin.preEnqueue(preemptor).isSuccess());
        assertEquals(List.of(), handle.activated(), "a preemption that went well waits for the deletion events");
    }

    @Test
    void aVictimAlreadyBeingDeletedGetsNoSecondCall() {
        PodInfo leaving = PodInfo.of(
                new PodBuilder(Pods.pod("a").uid("uid-a").priority(0).node("n1").build())
                        .editMetadata()
                        .withDeletionTimestamp("2026-12-02T10:00:00Z")
                        .endMetadata()
                        .build());
        evaluator.eviction().later(onN1(leaving), preemptor);

        assertTrue(plugin.preEnqueue(preemptor).isSuccess(), "nothing left to wait for");
        assertEquals(0, handle.runBackground());
        assertEquals(List.of(), handle.cluster().deleted());
    }

    @Test
    void aFailedEvictionStopsTheRestAndActivatesThePreemptor() {
        handle.cluster().failDeletesWith("etcdserver: request timed out");
        evaluator.eviction().later(onN1(victim("a"), victim("b")), preemptor);

        handle.runBackground();
        assertEquals(List.of("default/high"), handle.activated());
        assertTrue(plugin.preEnqueue(preemptor).isSuccess());
        // only the first victim was marked: the last is not tried once an earlier one failed
        assertEquals(1, handle.cluster().statusPatches().size());
    }

    @Test
    void withoutTheGateTheCycleEvictsAndAFailureIsItsError() {
        assertEquals(Status.SUCCESS, evaluator.eviction().now(onN1(victim("a")), preemptor));
        assertEquals(List.of("default/a"), handle.cluster().deleted());
        handle.cluster().failDeletesWith("etcdserver: request timed out");
        Status st = evaluator.eviction().now(onN1(victim("b")), preemptor);
        assertEquals(Code.ERROR, st.code());
        assertTrue(st.message().startsWith("preempting default/b on node n1"), st.message());
    }
}
