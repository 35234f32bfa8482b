package io.hotsched.core.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.AffinityBuilder;
import io.fabric8.kubernetes.api.model.ContainerImage;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.hotsched.api.framework.ImageStateSummary;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.core.runtime.Snapshot;
import io.hotsched.core.support.ManualClock;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ClusterCacheTest {

    /** Stands still unless a test advances it. */
    private final ManualClock clock = new ManualClock(Instant.EPOCH);

    private final ClusterCache cache = new ClusterCache(Duration.ofSeconds(30), clock);

    @Test
    void snapshotCopiesOnlyWhatChanged() {
        cache.addOrUpdateNode(Nodes.node("n1").cpu("4").build());
        cache.addOrUpdateNode(Nodes.node("n2").cpu("4").build());
        Snapshot s = new Snapshot();
        cache.updateSnapshot(s);
        assertEquals(List.of("n1", "n2"), s.list().stream().map(n -> n.name()).toList());
        var n1 = s.get("n1");
        var n2 = s.get("n2");
        cache.addOrUpdatePod(Pods.pod("p").node("n2").cpu("1").info());
        cache.updateSnapshot(s);
        assertSame(n1, s.get("n1"), "unchanged node not copied again");
        assertNotSame(n2, s.get("n2"));
        assertEquals(1000, s.get("n2").requested().milliCpu());
        assertEquals(0, n2.requested().milliCpu(), "the old copy is untouched");
    }

    @Test
    void theSnapshotKnowsWhichClaimsPodsUseAsNodesChange() {
        cache.addOrUpdateNode(Nodes.node("n1").cpu("4").build());
        cache.addOrUpdateNode(Nodes.node("n2").cpu("4").build());
        PodInfo a = Pods.pod("a").node("n1").claim("data").info();
        cache.addOrUpdatePod(a);
        cache.addOrUpdatePod(
                Pods.pod("b").node("n2").claim("data").claim("logs").info());
        Snapshot s = new Snapshot();
        cache.updateSnapshot(s);
        assertTrue(s.isPVCUsedByPods("default/data"));
        assertTrue(s.isPVCUsedByPods("default/logs"));
        assertFalse(s.isPVCUsedByPods("other/data"));

        cache.removePod(Pods.pod("b").node("n2").claim("data").claim("logs").info());
        cache.updateSnapshot(s);
        assertTrue(s.isPVCUsedByPods("default/data"), "still used by a on n1");
        assertFalse(s.isPVCUsedByPods("default/logs"));
        cache.removePod(a);
        cache.updateSnapshot(s);
        assertFalse(s.isPVCUsedByPods("default/data"));
    }

    @Test
    void assumedPodsCountUntilForgottenOrExpired() {
        cache.addOrUpdateNode(Nodes.node("n1").cpu("4").build());
        PodInfo p = Pods.pod("p").node("n1").cpu("1").info();
        cache.assume(p, "n1");
        assertThrows(IllegalStateException.class, () -> cache.assume(p, "n1"));
        assertEquals(1000, cache.node("n1").requested().milliCpu());
        cache.forget(p);
        assertEquals(0, cache.node("n1").requested().milliCpu());

        cache.assume(p, "n1");
        cache.finishBinding(p);
        clock.advance(Duration.ofSeconds(31));
        assertEquals(List.of(p), cache.cleanupExpired());
        assertEquals(0, cache.node("n1").requested().milliCpu());

        cache.assume(p, "n1");
        cache.finishBinding(p);
        cache.addOrUpdatePod(p);
        clock.advance(Duration.ofSeconds(69));
        assertEquals(List.of(), cache.cleanupExpired(), "confirmed by the cluster: no longer expires");
        assertEquals(1000, cache.node("n1").requested().milliCpu());
    }

    /**
     * The pod watch lags past the assumed pod's expiry: the binding reached the API, but its event
     * comes after the cache gave the pod up. When it comes, the pod counts once on its node: not
     * twice (assumed and bound), and not lost (the expiry does not hide the late event).
     */
    @Test
    void aBindingSeenAfterTheAssumedPodExpiredCountsOnce() {
        cache.addOrUpdateNode(Nodes.node("n1").cpu("4").build());
        PodInfo p = Pods.pod("p").node("n1").cpu("1").info();
        cache.assume(p, "n1");
        cache.finishBinding(p);
        clock.advance(Duration.ofSeconds(31));
        assertEquals(List.of(p), cache.cleanupExpired());
        assertEquals(0, cache.node("n1").requested().milliCpu(), "given up: nothing held for it");
        cache.addOrUpdatePod(p); // the watch's late event for the binding
        assertEquals(1000, cache.node("n1").requested().milliCpu());
        cache.addOrUpdatePod(p); // and the same event again after a relist
        assertEquals(1000, cache.node("n1").requested().milliCpu());
        clock.advance(Duration.ofSeconds(60));
        assertEquals(List.of(), cache.cleanupExpired(), "a pod the cluster reported bound never expires");
        assertEquals(1000, cache.node("n1").requested().milliCpu());
        Snapshot s = new Snapshot();
        cache.updateSnapshot(s);
        assertEquals(1, s.get("n1").pods().size());
    }

    @Test
    void terminatedPodsReleaseTheirNode() {
        cache.addOrUpdateNode(Nodes.node("n1").cpu("4").build());
        var pod = Pods.pod("p").node("n1").cpu("1").build();
        cache.addOrUpdatePod(PodInfo.of(pod));
        pod.setStatus(new PodStatusBuilder().withPhase("Succeeded").build());
        cache.addOrUpdatePod(PodInfo.of(pod));
        assertEquals(0, cache.node("n1").requested().milliCpu());
    }

    private static Node withImages(String name, String... images) {
        Node n = Nodes.node(name).cpu("4").build();
        List<ContainerImage> list = new ArrayList<>();
        for (String i : images) {
            list.add(new ContainerImage(List.of(i), 100L));
        }
        return new NodeBuilder(n).editStatus().withImages(list).endStatus().build();
    }

    @Test
    void imageStatesCountNodesClusterWide() {
        cache.addOrUpdateNode(withImages("n1", "nginx", "redis:7"));
        Snapshot s = new Snapshot();
        cache.updateSnapshot(s);
        assertEquals(
                Map.of("nginx:latest", new ImageStateSummary(100, 1), "redis:7", new ImageStateSummary(100, 1)),
                s.get("n1").imageStates());
        cache.addOrUpdateNode(withImages("n2", "nginx:latest"));
        cache.updateSnapshot(s);
        assertEquals(
                new ImageStateSummary(100, 2),
                s.get("n1").imageStates().get("nginx:latest"),
                "n1 sees the new count too");
        assertEquals(new ImageStateSummary(100, 2), s.get("n2").imageStates().get("nginx:latest"));
        assertEquals("repo/app@sha256:abc", ImageStateSummary.normalizedName("repo/app@sha256:abc"));
        assertEquals("host:5000/app:latest", ImageStateSummary.normalizedName("host:5000/app"));
    }

    @Test
    void anIncrementalSnapshotEqualsAFreshOneAfterAnyMixOfChanges() {
        Random random = new Random(42);
        Snapshot kept = new Snapshot();
        List<PodInfo> live = new ArrayList<>();
        for (int step = 0; step < 3000; step++) {
            String node = "n" + random.nextInt(20);
            switch (random.nextInt(6)) {
                case 0 ->
                    cache.addOrUpdateNode(Nodes.node(node)
                            .cpu(Integer.toString(1 + random.nextInt(8)))
                            .build());
                case 1 -> cache.removeNode(node);
                case 2, 3 -> {
                    var built = Pods.pod("p" + step)
                            .uid("u" + step)
                            .node(node)
                            .cpu(random.nextInt(500) + "m")
                            .label("app", "a")
                            .build();
                    if (random.nextInt(4) == 0) {
                        built.getSpec()
                                .setAffinity(new AffinityBuilder()
                                        .withNewPodAntiAffinity()
                                        .addNewRequiredDuringSchedulingIgnoredDuringExecution()
                                        .withTopologyKey("kubernetes.io/hostname")
                                        .withNewLabelSelector()
                                        .addToMatchLabels("app", "a")
                                        .endLabelSelector()
                                        .endRequiredDuringSchedulingIgnoredDuringExecution()
                                        .endPodAntiAffinity()
                                        .build());
                    }
                    PodInfo p = PodInfo.of(built);
                    cache.addOrUpdatePod(p);
                    live.add(p);
                }
                case 4 -> {
                    if (!live.isEmpty()) {
                        cache.removePod(live.remove(random.nextInt(live.size())));
                    }
                }
                default -> {
                    PodInfo p = Pods.pod("a" + step).uid("a" + step).cpu("100m").info();
                    try {
                        cache.assume(p, node);
                        if (random.nextBoolean()) {
                            cache.forget(p);
                        }
                    } catch (IllegalStateException absent) {
                        // the node is not in the cache right now
                    }
                }
            }
            if (random.nextInt(7) == 0) {
                cache.updateSnapshot(kept);
                Snapshot fresh = new Snapshot();
                cache.updateSnapshot(fresh);
                assertEquals(describe(fresh), describe(kept), "after step " + step);
                assertEquals(
                        names(fresh.havePodsWithRequiredAntiAffinityList()),
                        names(kept.havePodsWithRequiredAntiAffinityList()),
                        "after step " + step);
                assertEquals(
                        names(fresh.havePodsWithAffinityList()),
                        names(kept.havePodsWithAffinityList()),
                        "after step " + step);
                assertEquals(
                        fresh.list().stream()
                                .filter(n -> !n.podsWithRequiredAntiAffinity().isEmpty())
                                .map(n -> n.name())
                                .toList(),
                        names(kept.havePodsWithRequiredAntiAffinityList()),
                        "the list is the nodes with such pods, in list order");
                assertSame(
                        kept.get(
                                names(kept.havePodsWithAffinityList()).isEmpty()
                                        ? "none"
                                        : names(kept.havePodsWithAffinityList()).get(0)),
                        kept.havePodsWithAffinityList().isEmpty()
                                ? null
                                : kept.havePodsWithAffinityList().get(0),
                        "the snapshot's current copy");
            }
        }
    }

    private static List<String> names(List<NodeInfo> l) {
        return l.stream().map(n -> n.name()).toList();
    }

    private static List<String> describe(Snapshot s) {
        return s.list().stream()
                .map(n -> n.name() + " cpu=" + n.allocatable().milliCpu() + " requested="
                        + n.requested().milliCpu() + " pods=" + n.pods().size())
                .sorted()
                .toList();
    }

    @Test
    void aPluginsRecordLivesAsLongAsItsPodIsAssumed() {
        cache.addOrUpdateNode(Nodes.node("n1").cpu("4").build());
        PodInfo bound = Pods.pod("bound").uid("u-bound").node("n1").info();
        cache.addOrUpdatePod(bound);
        cache.reservations().record("VolumeBinding", bound, Map.of("pv/a", "x"));
        assertEquals(
                List.of(), cache.reservations().of("VolumeBinding"), "a bound pod is not assumed: nothing recorded");

        PodInfo confirmed = Pods.pod("confirmed").uid("u1").node("n1").info();
        PodInfo forgotten = Pods.pod("forgotten").uid("u2").node("n1").info();
        PodInfo expired = Pods.pod("expired").uid("u3").node("n1").info();
        PodInfo deleted = Pods.pod("deleted").uid("u4").node("n1").info();
        for (PodInfo p : List.of(confirmed, forgotten, expired, deleted)) {
            cache.assume(p, "n1");
            cache.reservations().record("VolumeBinding", p, Map.of("pv/" + p.name(), p.uid()));
        }
        cache.reservations().record("DeviceShare", confirmed, Map.of("gpu", "0"));
        assertEquals(
                List.of("default/confirmed", "default/deleted", "default/expired", "default/forgotten"),
                cache.reservations().of("VolumeBinding").stream()
                        .map(r -> r.podKey())
                        .sorted()
                        .toList());
        assertEquals("n1", cache.reservations().of("DeviceShare").get(0).node());

        cache.addOrUpdatePod(confirmed);
        cache.forget(forgotten);
        cache.removePod(deleted);
        cache.finishBinding(expired);
        clock.advance(Duration.ofSeconds(31));
        assertEquals(List.of(expired), cache.cleanupExpired());
        assertEquals(List.of(), cache.reservations().of("VolumeBinding"));
        assertEquals(List.of(), cache.reservations().of("DeviceShare"), "every plugin's record of the pod ends");
        assertEquals(0, ((AssumedReservations) cache.reservations()).pods());
    }

    @Test
    void aDroppedRecordIsGoneAndTheOthersStay() {
        cache.addOrUpdateNode(Nodes.node("n1").cpu("4").build());
        PodInfo p = Pods.pod("p").uid("u1").node("n1").info();
        cache.assume(p, "n1");
        cache.reservations().record("VolumeBinding", p, Map.of("pv/a", "1"));
        cache.reservations().record("VolumeBinding", p, Map.of("pv/b", "2"));
        cache.reservations().record("DeviceShare", p, Map.of("gpu", "0"));
        assertEquals(
                Map.of("pv/b", "2"),
                cache.reservations().of("VolumeBinding").get(0).entries(),
                "replaced");
        cache.reservations().drop("VolumeBinding", p);
        assertEquals(List.of(), cache.reservations().of("VolumeBinding"));
        assertEquals(1, cache.reservations().of("DeviceShare").size());
    }
}
