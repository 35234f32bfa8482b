package io.hotsched.plugins.defaults.volumebinding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.storage.StorageClassBuilder;
import io.hotsched.api.framework.Code;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.InvalidArgsException;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;
import io.hotsched.core.runtime.PluginArgsImpl;
import io.hotsched.core.runtime.Snapshot;
import io.hotsched.testing.FakeHandle;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import io.hotsched.testing.Volumes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * VolumeBinding on local volumes of a WaitForFirstConsumer class: the node a volume can reach is
 * chosen, Reserve takes the volume from the next pod until Unreserve, PreBind writes the claimRef
 * and waits for the PersistentVolume controller up to bindTimeoutSeconds, and a shape scores the
 * volume whose size fits the claim best.
 */
class VolumeBindingTest {

    private final FakeHandle handle = new FakeHandle();
    private final NodeInfo nodeA = new NodeInfo(
            Nodes.node("node-a").label("kubernetes.io/hostname", "node-a").build());
    private final NodeInfo nodeB = new NodeInfo(
            Nodes.node("node-b").label("kubernetes.io/hostname", "node-b").build());
    private Instant now = Instant.parse("2026-12-01T00:00:00Z");

    VolumeBindingTest() {
        handle.setSnapshot(new Snapshot(List.of(nodeA, nodeB)));
        handle.setClock(new Clock() {
            @Override
            public ZoneOffset getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return now;
            }
        });
        handle.addObject(new StorageClassBuilder()
                .withNewMetadata()
                .withName("local")
                .endMetadata()
                .withProvisioner("kubernetes.io/no-provisioner")
                .withVolumeBindingMode("WaitForFirstConsumer")
                .build());
    }

    private static PersistentVolume local(String name, String node, String size) {
        PersistentVolume pv = Volumes.local(name, node, size, "local");
        pv.getMetadata().setResourceVersion("1");
        return pv;
    }

    private static PersistentVolumeClaim claim(String name, String size) {
        PersistentVolumeClaim c = Volumes.claim(name, "local", size);
        c.getMetadata().setUid(name + "-uid");
        c.getMetadata().setResourceVersion("1");
        return c;
    }

    private VolumeBinding plugin(Map<String, Object> args) throws InvalidArgsException {
        return VolumeBinding.create(new PluginArgsImpl(args), handle);
    }

    private static CycleState preFilter(VolumeBinding p, PodInfo pod) {
        CycleState state = new CycleState();
        Status st = p.preFilter(state, pod, null).status();
        assertTrue(st.isSuccess(), st::toString);
        return state;
    }

    @Test
    void aMissingClaimIsRefusedByName() throws Exception {
        Status st = plugin(Map.of())
                .preFilter(new CycleState(), Pods.pod("p").claim("data").info(), null)
                .status();
        assertEquals(Status.unresolvable("persistentvolumeclaim \"data\" not found"), st);
    }

    @Test
    void theReservedVolumeIsTakenUntilUnreserved() throws Exception {
        handle.addObject(local("pv-a", "node-a", "10Gi"));
        handle.addObject(claim("c1", "5Gi"));
        handle.addObject(claim("c2", "5Gi"));
        VolumeBinding p = plugin(Map.of());
        PodInfo first = Pods.pod("first").claim("c1").info();
        CycleState s1 = preFilter(p, first);
        assertTrue(p.filter(s1, first, nodeA).isSuccess());
        assertEquals(
                Status.unresolvable(VolumeBinder.REASON_BIND_CONFLICT),
                p.filter(s1, first, nodeB),
                "pv-a cannot reach node-b");
        assertTrue(p.reserve(s1, first, "node-a").isSuccess());

        PodInfo second = Pods.pod("second").claim("c2").info();
        CycleState s2 = preFilter(p, second);
        assertEquals(
                Status.unresolvable(VolumeBinder.REASON_BIND_CONFLICT),
                p.filter(s2, second, nodeA),
                "pv-a is assumed for c1");

        p.unreserve(s1, first, "node-a");
        CycleState s3 = preFilter(p, second);
        assertTrue(p.filter(s3, second, nodeA).isSuccess(), "pv-a is free again");
    }

    @Test
    void anotherInstanceSeesTheVolumesAndClaimsThisOneAssumedUntilThePodIsNoLongerAssumed() throws Exception {
        // the old version keeps its pods to the end while the new one serves: both on one framework
        handle.addObject(local("pv-a", "node-a", "10Gi"));
        handle.addObject(claim("c1", "5Gi"));
        handle.addObject(claim("c2", "5Gi"));
        handle.addObject(new StorageClassBuilder()
                .withNewMetadata()
                .withName("provisioned")
                .endMetadata()
                .withProvisioner("example.com/csi")
                .withVolumeBindingMode("WaitForFirstConsumer")
                .build());
        PersistentVolumeClaim dynamic = Volumes.claim("d1", "provisioned", "1Gi");
        dynamic.getMetadata().setResourceVersion("7");
        handle.addObject(dynamic);
        VolumeBinding old = plugin(Map.of());
        VolumeBinding current = plugin(Map.of());

        PodInfo first = Pods.pod("first").claim("c1").claim("d1").info();
        CycleState s1 = preFilter(old, first);
        assertTrue(old.filter(s1, first, nodeA).isSuccess());
        assertTrue(old.reserve(s1, first, "node-a").isSuccess());

        PodInfo second = Pods.pod("second").claim("c2").info();
        assertEquals(
                Status.unresolvable(VolumeBinder.REASON_BIND_CONFLICT),
                current.filter(preFilter(current, second), second, nodeA),
                "pv-a is assumed for c1 by the other instance");
        PodInfo third = Pods.pod("third").claim("d1").info();
        current.preFilter(new CycleState(), third, null);
        assertEquals(
                "node-a",
                current.binder()
                        .pvcs
                        .get("default", "d1")
                        .getMetadata()
                        .getAnnotations()
                        .get(VolumeBinder.SELECTED_NODE),
                "the claim the other instance gave node-a to provision");

        handle.reservations().ended(first.uid());
        assertTrue(
                current.filter(preFilter(current, second), second, nodeA).isSuccess(),
                "the pod is no longer assumed (its binding failed elsewhere): pv-a is free to this instance");
    }

    @Test
    void unreserveDropsTheRecordTheOtherInstancesRead() throws Exception {
        handle.addObject(local("pv-a", "node-a", "10Gi"));
        handle.addObject(claim("c1", "5Gi"));
        VolumeBinding p = plugin(Map.of());
        PodInfo pod = Pods.pod("p").claim("c1").info();
        CycleState state = preFilter(p, pod);
        assertTrue(p.filter(state, pod, nodeA).isSuccess());
        assertTrue(p.reserve(state, pod, "node-a").isSuccess());
        assertEquals(1, handle.reservations().of(VolumeBinding.NAME).size());
        assertEquals(
                Map.of("pv/pv-a", "1|default|c1|c1-uid|1|true"),
                handle.reservations().of(VolumeBinding.NAME).get(0).entries());
        p.unreserve(state, pod, "node-a");
        assertEquals(List.of(), handle.reservations().of(VolumeBinding.NAME));
    }

    @Test
    void preBindWritesTheClaimRefAndWaitsForTheControllerUpToTheTimeout() throws Exception {
        handle.addObject(local("pv-a", "node-a", "10Gi"));
        PersistentVolumeClaim c = claim("c1", "5Gi");
        handle.addObject(c);
        VolumeBinding p = plugin(Map.of("bindTimeoutSeconds", 30));
        PodInfo pod = Pods.pod("p").claim("c1").info();
        CycleState state = preFilter(p, pod);
        assertTrue(p.filter(state, pod, nodeA).isSuccess());
        assertTrue(p.reserve(state, pod, "node-a").isSuccess());

        assertEquals(Code.WAIT, p.preBind(state, pod, "node-a").code());
        PersistentVolume written = (PersistentVolume) handle.cluster().updates().get(0);
        assertEquals("c1", written.getSpec().getClaimRef().getName());
        assertEquals("c1-uid", written.getSpec().getClaimRef().getUid());
        assertEquals("yes", written.getMetadata().getAnnotations().get(VolumeBinder.BOUND_BY_CONTROLLER));
        now = now.plusSeconds(10);
        assertEquals(Code.WAIT, p.preBind(state, pod, "node-a").code(), "asked again, nothing written twice");
        assertEquals(1, handle.cluster().updates().size());

        // the PersistentVolume controller binds the claim
        handle.listers()
                .put(new PersistentVolumeClaimBuilder(c)
                        .editMetadata()
                        .withResourceVersion("2000")
                        .addToAnnotations(VolumeBinder.BIND_COMPLETED, "yes")
                        .endMetadata()
                        .editSpec()
                        .withVolumeName("pv-a")
                        .endSpec()
                        .build());
        assertTrue(p.preBind(state, pod, "node-a").isSuccess());
    }

    @Test
    void aBindingThatTheControllerDoesNotFinishFailsAtTheTimeout() throws Exception {
        handle.addObject(local("pv-a", "node-a", "10Gi"));
        handle.addObject(claim("c1", "5Gi"));
        VolumeBinding p = plugin(Map.of("bindTimeoutSeconds", 30));
        PodInfo pod = Pods.pod("p").claim("c1").info();
        CycleState state = preFilter(p, pod);
        p.filter(state, pod, nodeA);
        p.reserve(state, pod, "node-a");
        assertEquals(Code.WAIT, p.preBind(state, pod, "node-a").code());
        now = now.plus(Duration.ofSeconds(30));
        assertEquals(Status.error("binding volumes: context deadline exceeded"), p.preBind(state, pod, "node-a"));
    }

    @Test
    void aShapeScoresTheVolumeThatFitsTheClaimBest() throws Exception {
        // upstream's "local volumes with close capacity are preferred" with the old default shape
        handle.addObject(local("pv-a-0", "node-a", "200Gi"));
        handle.addObject(local("pv-b-0", "node-b", "100Gi"));
        handle.addObject(claim("pvc-a", "50Gi"));
        VolumeBinding p = plugin(Map.of(
                "shape", List.of(Map.of("utilization", 0, "score", 0), Map.of("utilization", 100, "score", 10))));
        PodInfo pod = Pods.pod("p").claim("pvc-a").info();
        CycleState state = preFilter(p, pod);
        p.filter(state, pod, nodeA);
        p.filter(state, pod, nodeB);
        assertTrue(p.preScore(state, pod, List.of(nodeA, nodeB)).isSuccess());
        assertEquals(25, p.score(state, pod, nodeA));
        assertEquals(50, p.score(state, pod, nodeB));
        assertTrue(plugin(Map.of()).preScore(state, pod, List.of(nodeA)).isSkip(), "no shape: no scoring");
    }

    @Test
    void badArgsAreRefusedNamingTheField() {
        InvalidArgsException e =
                assertThrows(InvalidArgsException.class, () -> plugin(Map.of("bindTimeoutSeconds", -1)));
        assertTrue(e.getMessage().contains("bindTimeoutSeconds"), e.getMessage());
        e = assertThrows(
                InvalidArgsException.class,
                () -> plugin(Map.of("shape", List.of(Map.of("utilization", 50, "score", 11)))));
        assertTrue(e.getMessage().contains("shape[0].score"), e.getMessage());
        assertNull(handle.listers().persistentVolumes().get("nothing"));
    }
}
