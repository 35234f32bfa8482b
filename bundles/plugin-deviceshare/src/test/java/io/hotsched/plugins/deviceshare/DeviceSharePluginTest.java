package io.hotsched.plugins.deviceshare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.InvalidArgsException;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;
import io.hotsched.testing.FakeHandle;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import io.hotsched.testing.Snapshots;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The plugin's own behaviour beyond Koordinator's cases: preemption's dry run, hints, args. */
class DeviceSharePluginTest {

    private static FakeHandle handleWith(String node, List<Object> devices) {
        FakeHandle h = new FakeHandle();
        GenericKubernetesResource d = new GenericKubernetesResourceBuilder()
                .withApiVersion("scheduling.koordinator.sh/v1alpha1")
                .withKind("Device")
                .withNewMetadata()
                .withName(node)
                .endMetadata()
                .build();
        d.setAdditionalProperty("spec", Map.of("devices", devices));
        h.addObject(d);
        return h;
    }

    private static Map<String, Object> rdma(int minor, String pcie, String label) {
        return Map.of(
                "type",
                "rdma",
                "minor",
                minor,
                "health",
                true,
                "labels",
                Map.of("type", label),
                "topology",
                Map.of("nodeID", 0, "pcieID", pcie),
                "resources",
                Map.of(DeviceResources.RDMA, "100"));
    }

    private static PodInfo holder(String name, String type, int minor, String resource, String amount) {
        return PodInfo.of(Pods.pod(name)
                .node("n1")
                .annotation(
                        AllocationAnnotation.KEY,
                        "{\"" + type + "\":[{\"minor\":" + minor + ",\"resources\":{\"" + resource + "\":\"" + amount
                                + "\"}}]}")
                .build());
    }

    @Test
    void preemptionsDryRunGivesAVictimsDevicesBack() {
        FakeHandle h = handleWith("n1", List.of(rdma(0, "0", "a")));
        DeviceShare plugin = new DeviceShare(h, DeviceShareArgs.DEFAULT);
        PodInfo victim = holder("victim", "rdma", 0, DeviceResources.RDMA, "100");
        NodeInfo node = Nodes.node("n1").info(victim);
        PodInfo pod =
                PodInfo.of(Pods.pod("p").request(DeviceResources.RDMA, "100").build());
        CycleState state = new CycleState();
        assertTrue(plugin.preFilter(state, pod, null).status().isSuccess());
        assertEquals(
                "Insufficient rdma devices", plugin.filter(state, pod, node).message());

        CycleState dryRun = state.copy();
        assertEquals(Status.SUCCESS, plugin.preFilterExtensions().removePod(dryRun, pod, victim, node));
        assertEquals(Status.SUCCESS, plugin.filter(dryRun, pod, node));
        // the original state is untouched, and adding the victim back takes its devices again
        assertEquals(
                "Insufficient rdma devices", plugin.filter(state, pod, node).message());
        plugin.preFilterExtensions().addPod(dryRun, pod, victim, node);
        assertEquals(
                "Insufficient rdma devices", plugin.filter(dryRun, pod, node).message());
    }

    /** Pod {@code name} (uid u-name) asking for 100 of one RDMA device. */
    private static PodInfo rdmaPod(String name) {
        return PodInfo.of(Pods.pod(name)
                .uid("u-" + name)
                .request(DeviceResources.RDMA, "100")
                .build());
    }

    @Test
    void anotherInstanceSeesTheDevicesThisOneReservedUntilThePodIsNoLongerAssumed() {
        // after an upgrade the old version finishes its pods while the new one serves
        FakeHandle h = handleWith("n1", List.of(rdma(0, "0", "a")));
        DeviceShare old = new DeviceShare(h, DeviceShareArgs.DEFAULT);
        DeviceShare current = new DeviceShare(h, DeviceShareArgs.DEFAULT);
        PodInfo first = rdmaPod("first");
        CycleState s1 = new CycleState();
        assertTrue(old.preFilter(s1, first, null).status().isSuccess());
        h.setSnapshot(Snapshots.of(Nodes.node("n1").info()));
        // the assumed pod (Reserve gets it with its node) is on the node, without the annotation
        // PreBind has yet to write
        PodInfo assumed = PodInfo.of(Pods.pod("first")
                .uid("u-first")
                .node("n1")
                .request(DeviceResources.RDMA, "100")
                .build());
        assertEquals(Status.SUCCESS, old.reserve(s1, assumed, "n1"));
        NodeInfo withFirst = Nodes.node("n1").info(assumed);

        PodInfo second = rdmaPod("second");
        CycleState s2 = new CycleState();
        assertTrue(current.preFilter(s2, second, null).status().isSuccess());
        assertEquals(
                "Insufficient rdma devices",
                current.filter(s2, second, withFirst).message());

        h.reservations().ended("u-first");
        CycleState s3 = new CycleState();
        assertTrue(current.preFilter(s3, second, null).status().isSuccess());
        assertEquals(Status.SUCCESS, current.filter(s3, second, withFirst), "the record ended with the assumption");

        CycleState s4 = new CycleState();
        assertTrue(old.preFilter(s4, second, null).status().isSuccess());
        assertEquals(
                "Insufficient rdma devices",
                old.filter(s4, second, withFirst).message(),
                "the old instance still holds its own reservation");
        old.unreserve(s1, assumed, "n1");
        assertEquals(List.of(), h.reservations().of(DeviceShare.NAME));
    }

    @Test
    void hintsNarrowTheDevicesTaken() throws Exception {
        List<Object> devices =
                new ArrayList<>(List.of(rdma(0, "0", "slow"), rdma(1, "0", "fast"), rdma(2, "1", "fast")));
        FakeHandle h = handleWith("n1", devices);
        h.setSnapshot(Snapshots.of(Nodes.node("n1").info(holder("other", "rdma", 1, DeviceResources.RDMA, "10"))));
        // MostAllocated would pack onto minor 1 (partly used) were it not for the hint
        DeviceShare plugin = new DeviceShare(
                h, new DeviceShareArgs(DeviceScorer.withDefaultWeights(DeviceScorer.MOST_ALLOCATED), List.of(), false));
        // the selector rules out minor 0; PCIeLevel rules out PCIe 0, where minor 1 is partly used
        PodInfo pod = PodInfo.of(Pods.pod("p")
                .uid("p")
                .request(DeviceResources.RDMA, "50")
                .annotation(
                        AllocateHints.KEY,
                        "{\"rdma\":{\"selector\":{\"matchLabels\":{\"type\":\"fast\"}},\"exclusivePolicy\":\"PCIeLevel\"}}")
                .build());
        CycleState state = new CycleState();
        assertTrue(plugin.preFilter(state, pod, null).status().isSuccess());
        assertEquals(Status.SUCCESS, plugin.reserve(state, pod, "n1"));
        assertEquals(
                2,
                state.read(DeviceShare.ALLOCATED)
                        .orElseThrow()
                        .allocations()
                        .get("rdma")
                        .get(0)
                        .minor());

        PodInfo bad = PodInfo.of(Pods.pod("b")
                .request(DeviceResources.RDMA, "50")
                .annotation(AllocateHints.KEY, "{\"rdma\":{\"requiredTopologyScope\":\"Rack\"}}")
                .build());
        Status refused = plugin.preFilter(new CycleState(), bad, null).status();
        assertEquals(
                "annotation " + AllocateHints.KEY
                        + ": rdma.requiredTopologyScope \"Rack\" is not one of Device, PCIe, NUMANode, Node",
                refused.message());
    }

    @Test
    void argsAreCheckedWithTheFieldNamed() {
        Args a = new Args();
        a.scoringStrategy = new Args.ScoringStrategy();
        a.scoringStrategy.type = "RequestedToCapacityRatio";
        InvalidArgsException e = org.junit.jupiter.api.Assertions.assertThrows(
                InvalidArgsException.class, () -> DeviceShareArgs.defaulted(a));
        assertTrue(e.getMessage().contains("scoringStrategy.type"), e.getMessage());
        a.scoringStrategy.type = "MostAllocated";
        Args.Weight w = new Args.Weight();
        w.name = DeviceResources.GPU_MEMORY;
        w.weight = 101L;
        a.scoringStrategy.resources = List.of(w);
        e = org.junit.jupiter.api.Assertions.assertThrows(
                InvalidArgsException.class, () -> DeviceShareArgs.defaulted(a));
        assertTrue(e.getMessage().contains("scoringStrategy.resources[0].weight"), e.getMessage());
        a.scoringStrategy.resources = null;
        a.featureGates = Map.of("NoSuchGate", true);
        e = org.junit.jupiter.api.Assertions.assertThrows(
                InvalidArgsException.class, () -> DeviceShareArgs.defaulted(a));
        assertTrue(e.getMessage().contains("featureGates.NoSuchGate"), e.getMessage());
    }

    @Test
    void stateShowsEachDeviceWithWhoHoldsWhat() {
        FakeHandle h = handleWith("n1", List.of(rdma(0, "0", "a"), rdma(1, "0", "a")));
        NodeInfo node = Nodes.node("n1").info(holder("holder", "rdma", 1, DeviceResources.RDMA, "30"));
        h.setSnapshot(Snapshots.of(node));
        DeviceShare plugin = new DeviceShare(h, DeviceShareArgs.DEFAULT);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> rows =
                (List<Map<String, Object>>) plugin.describeState("n1").get("n1");
        assertEquals(2, rows.size());
        assertEquals("rdma 1", rows.get(1).get("device"));
        assertEquals("rdma=100", rows.get(1).get("total"));
        assertEquals("rdma=30", rows.get(1).get("used"));
        assertEquals("rdma=70", rows.get(1).get("free"));
        assertEquals(List.of("default/holder: rdma=30"), rows.get(1).get("pods"));
        assertEquals("none", rows.get(0).get("pods"));
        assertEquals(
                "no such node in the scheduler's snapshot",
                plugin.describeState("n9").get("n9"));
    }
}
