package io.hotsched.plugins.deviceshare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.Quantity;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;
import io.hotsched.testing.Devices;
import io.hotsched.testing.Pods;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The GPU parts of Koordinator's allocator table (spec §3.8: A3–A10, T1–T4, SH1, SH2) on its
 * fixture: 8 GPUs, two per PCIe switch (0:{0,1} … 3:{6,7}), NUMA node 0 holding GPUs 0–3 and 1
 * holding 4–7.
 */
class TopologyAllocatorTest {

    private static final String MEMORY = "83201216Ki";

    private static List<DeviceEntry> gpus() {
        List<Object> devices = new ArrayList<>();
        for (int minor = 0; minor < 8; minor++) {
            Map<String, Object> gpu = Devices.gpu(minor, MEMORY);
            gpu.put(
                    "topology",
                    Map.of("socketID", minor / 4, "nodeID", minor / 4, "pcieID", Integer.toString(minor / 2)));
            devices.add(gpu);
        }
        return DeviceEntry.of(Map.of("devices", devices));
    }

    private static Map<String, BigDecimal> share(int percent) {
        Map<String, BigDecimal> m = new TreeMap<>();
        m.put(DeviceResources.GPU_CORE, BigDecimal.valueOf(percent));
        m.put(DeviceResources.GPU_MEMORY_RATIO, BigDecimal.valueOf(percent));
        m.put(
                DeviceResources.GPU_MEMORY,
                new Quantity(MEMORY)
                        .getNumericalAmount()
                        .multiply(BigDecimal.valueOf(percent))
                        .divide(BigDecimal.valueOf(100)));
        return m;
    }

    /** GPUs used: minor → percent of the GPU. */
    private static NodeDevices node(Map<Integer, Integer> used) {
        Map<Integer, Map<String, BigDecimal>> byMinor = new TreeMap<>();
        used.forEach((minor, percent) -> byMinor.put(minor, share(percent)));
        return new NodeDevices(gpus(), new TreeMap<>(Map.of("gpu", byMinor)));
    }

    private static List<Integer> allocate(Pods pod, Map<Integer, Integer> used, DeviceScorer scorer) {
        PreFilterState.Outcome o = PreFilterState.of(PodInfo.of(pod.build()));
        assertEquals(Status.SUCCESS, o.status());
        NodeAllocation.Result r = NodeAllocation.allocate(o.state(), node(used), null, scorer, Map.of());
        if (!r.status().isSuccess()) {
            throw new IllegalStateException(r.status().message());
        }
        return r.allocations().get("gpu").stream()
                .map(GpuMemoryFill.Allocation::minor)
                .toList();
    }

    private static Pods gpus(int n) {
        return Pods.pod("p").request("nvidia.com/gpu", Integer.toString(n));
    }

    private static String refusal(Pods pod, Map<Integer, Integer> used) {
        PreFilterState.Outcome o = PreFilterState.of(PodInfo.of(pod.build()));
        return NodeAllocation.allocate(o.state(), node(used), null, DeviceScorer.DEFAULT, Map.of())
                .status()
                .message();
    }

    @Test
    void wholeGpusTakeTheNarrowestScopeThatHoldsThem() {
        assertEquals(List.of(0), allocate(gpus(1), Map.of(), DeviceScorer.DEFAULT));
        assertEquals(List.of(0, 1), allocate(gpus(2), Map.of(), DeviceScorer.DEFAULT));
        assertEquals(List.of(0, 1, 2), allocate(gpus(3), Map.of(), DeviceScorer.DEFAULT));
        assertEquals(List.of(0, 1, 2, 3), allocate(gpus(4), Map.of(), DeviceScorer.DEFAULT));
        assertEquals(List.of(0, 1, 2, 3, 4, 5), allocate(gpus(6), Map.of(), DeviceScorer.DEFAULT));
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7), allocate(gpus(8), Map.of(), DeviceScorer.DEFAULT));
    }

    @Test
    void scopesThatAlreadyHoldAllocationsArePreferred() {
        // A9, A10: GPU 0 in use
        assertEquals(List.of(2, 3), allocate(gpus(2), Map.of(0, 100), DeviceScorer.DEFAULT));
        assertEquals(List.of(1, 2, 3), allocate(gpus(3), Map.of(0, 100), DeviceScorer.DEFAULT));
        // T1, T2: GPU 5 in use
        assertEquals(List.of(4), allocate(gpus(1), Map.of(5, 100), DeviceScorer.DEFAULT));
        assertEquals(List.of(6, 7), allocate(gpus(2), Map.of(5, 100), DeviceScorer.DEFAULT));
    }

    @Test
    void aRequiredScopeIsHeldOrTheNodeRefused() {
        Pods numa = gpus(4).annotation(AllocateHints.KEY, "{\"gpu\":{\"requiredTopologyScope\":\"NUMANode\"}}");
        assertEquals(List.of(0, 1, 2, 3), allocate(numa, Map.of(5, 100), DeviceScorer.DEFAULT));
        assertEquals(TopologyAllocator.INSUFFICIENT_SCOPED, refusal(numa, Map.of(5, 100, 0, 100)));
        // without the hint the node's scope takes any four
        assertEquals(List.of(1, 2, 3, 4), allocate(gpus(4), Map.of(5, 100, 0, 100), DeviceScorer.DEFAULT));
    }

    @Test
    void aSharedGpuGoesWhereTheMostAllocatedScorerPacksIt() {
        Map<String, Long> weights = new LinkedHashMap<>();
        weights.put(DeviceResources.GPU_MEMORY_RATIO, 1L);
        weights.put(DeviceResources.GPU_MEMORY, 1L);
        DeviceScorer most = new DeviceScorer(DeviceScorer.MOST_ALLOCATED, weights);
        Pods half = Pods.pod("p")
                .request(DeviceResources.GPU_SHARED, "1")
                .request(DeviceResources.GPU_CORE, "50")
                .request(DeviceResources.GPU_MEMORY_RATIO, "50");
        // SH1: GPU 5 full, so GPU 4 (its PCIe switch holds an allocation)
        assertEquals(List.of(4), allocate(half, Map.of(5, 100), most));
        // SH2: GPU 7 half used as well: it scores highest in an equally deep, equally used scope
        assertEquals(List.of(7), allocate(half, Map.of(5, 100, 7, 50), most));
    }

    @Test
    void withoutTopologyTheDefaultOrderDecides() {
        List<Object> devices = new ArrayList<>();
        for (int minor = 0; minor < 2; minor++) {
            Map<String, Object> gpu = Devices.gpu(minor, MEMORY);
            gpu.remove("id");
            devices.add(gpu);
        }
        NodeDevices flat = new NodeDevices(DeviceEntry.of(Map.of("devices", devices)), new TreeMap<>());
        PreFilterState.Outcome o = PreFilterState.of(PodInfo.of(gpus(3).build()));
        assertEquals(
                "Insufficient gpu devices",
                NodeAllocation.allocate(o.state(), flat, null, DeviceScorer.DEFAULT, Map.of())
                        .status()
                        .message());
        assertEquals(
                TopologyAllocator.INSUFFICIENT,
                refusal(gpus(3), Map.of(0, 100, 1, 100, 2, 100, 3, 100, 4, 100, 5, 100)));
    }
}
