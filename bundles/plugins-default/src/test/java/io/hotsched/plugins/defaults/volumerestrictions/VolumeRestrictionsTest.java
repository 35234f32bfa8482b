package io.hotsched.plugins.defaults.volumerestrictions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.QueueingHint;
import io.hotsched.api.framework.Status;
import io.hotsched.core.runtime.Snapshot;
import io.hotsched.testing.FakeHandle;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What upstream's table does not reach: preemption's AddPod/RemovePod on a copied cycle state, and
 * the queueing hints of a deleted pod and an added claim.
 */
class VolumeRestrictionsTest {

    private final FakeHandle handle = new FakeHandle();

    private void rwopClaim(String name) {
        handle.addObject(new PersistentVolumeClaimBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("default")
                .endMetadata()
                .withNewSpec()
                .withAccessModes("ReadWriteOncePod")
                .endSpec()
                .build());
    }

    @Test
    void removingTheHolderOfAReadWriteOncePodClaimFreesItOnlyInTheCopy() {
        rwopClaim("data");
        PodInfo holder = Pods.pod("holder").node("n1").claim("data").info();
        NodeInfo n1 = new NodeInfo(Nodes.node("n1").build());
        n1.addPod(holder);
        VolumeRestrictions p = new VolumeRestrictions(handle);
        PodInfo incoming = Pods.pod("incoming").claim("data").info();
        CycleState state = new CycleState();
        assertTrue(
                p.preFilter(state, incoming, new Snapshot(List.of(n1))).status().isSuccess());
        assertEquals(
                VolumeRestrictions.ERR_REASON_READ_WRITE_ONCE_POD_CONFLICT,
                p.filter(state, incoming, n1).message());

        // preemption's dry run: the holder is taken out of a copy
        CycleState dryRun = state.copy();
        NodeInfo without = n1.copy();
        without.removePod(holder.uid());
        assertTrue(p.removePod(dryRun, incoming, holder, without).isSuccess());
        assertTrue(p.filter(dryRun, incoming, without).isSuccess());
        assertEquals(
                Status.unschedulable(VolumeRestrictions.ERR_REASON_READ_WRITE_ONCE_POD_CONFLICT),
                p.filter(state, incoming, n1));
        assertTrue(p.addPod(dryRun, incoming, holder, n1).isSuccess());
        assertEquals(
                VolumeRestrictions.ERR_REASON_READ_WRITE_ONCE_POD_CONFLICT,
                p.filter(dryRun, incoming, n1).message());
    }

    @Test
    void aDeletedPodRequeuesOnlyWhenItHeldWhatThePodWaitsFor() {
        PodInfo waiting = Pods.pod("w").claim("data").info();
        Pod sameClaim = Pods.pod("a").node("n1").claim("data").build();
        Pod otherClaim = Pods.pod("b").node("n1").claim("logs").build();
        Pod otherNamespace =
                Pods.pod("c").namespace("team").node("n1").claim("data").build();
        assertEquals(QueueingHint.QUEUE, VolumeRestrictions.afterPodDeleted(waiting, sameClaim, null));
        assertEquals(QueueingHint.SKIP, VolumeRestrictions.afterPodDeleted(waiting, otherClaim, null));
        assertEquals(QueueingHint.SKIP, VolumeRestrictions.afterPodDeleted(waiting, otherNamespace, null));
    }
}
