package io.hotsched.plugins.deviceshare;

import io.hotsched.api.framework.Status;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Koordinator's GPU allocation by device topology: the node's GPUs as a tree (the node, its NUMA
 * nodes by id, their PCIe switches by id), searched for the narrowest scope that can hold the
 * request. Among scopes of equal depth the one whose ancestors already hold more allocations wins
 * (bin-packing); for a shared GPU then the device's score. Within a scope, whole GPUs are the
 * first fitting ones by minor; a shared GPU is the best-scoring fitting one.
 */
final class TopologyAllocator {

    /** Scope levels as Koordinator numbers them; a required scope rules out the wider ones. */
    static final Map<String, Integer> LEVELS = Map.of("Node", 1, "NUMANode", 2, "PCIe", 3, "Device", 4);

    static final String INSUFFICIENT = "Insufficient GPU Devices";
    static final String INSUFFICIENT_SCOPED = "Insufficient Topology Scoped GPU Devices";

    /** The outcome: allocations, a refusal, or neither (the default allocation decides). */
    record Result(Status status, List<GpuMemoryFill.Allocation> allocations) {
        static final Result FALL_THROUGH = new Result(null, null);

        boolean fallThrough() {
            return status == null;
        }
    }

    private record Scope(int level, List<Integer> minors, List<Scope> children) {}

    private record Found(List<GpuMemoryFill.Allocation> allocations, int depth, int nonEmptyAncestors, long score) {}

    private final GpuRequirements req;
    private final String requiredScope;
    private final DeviceScorer scorer;
    private final Map<Integer, Map<String, BigDecimal>> total = new TreeMap<>();
    private final Map<Integer, Map<String, BigDecimal>> free = new TreeMap<>();
    private final Map<Integer, Boolean> used = new TreeMap<>();
    private final Map<Integer, long[]> deviceChecks = new TreeMap<>();

    private TopologyAllocator(GpuRequirements req, String requiredScope, DeviceScorer scorer) {
        this.req = req;
        this.requiredScope = requiredScope == null ? "" : requiredScope;
        this.scorer = scorer;
    }

    /**
     * @param requiredScope the pod's {@code requiredTopologyScope} hint, or null
     * @param preemptible per minor, what preemption's dry run gives back
     */
    static Result allocate(
            NodeDevices node,
            GpuRequirements req,
            String requiredScope,
            DeviceScorer scorer,
            Map<Integer, Map<String, BigDecimal>> preemptible) {
        TopologyAllocator a = new TopologyAllocator(req, requiredScope, scorer);
        List<DeviceEntry> gpus = node.devices(DeviceResources.TYPE_GPU);
        Scope root = tree(gpus);
        if (root == null || (req.gpuShared() && req.numberOfGPUs() > 1)) {
            // unsupported here: the default allocation decides, unless a scope is required
            return a.requiredScope.isEmpty()
                    ? Result.FALL_THROUGH
                    : new Result(
                            Status.unresolvable(
                                    root == null
                                            ? "node(s) missing GPU Device Topology Tree"
                                            : "node(s) Unsupported Multi-Shared GPU"),
                            null);
        }
        for (DeviceEntry d : gpus) {
            Map<String, BigDecimal> f = node.free(d, preemptible == null ? null : preemptible.get(d.minor()));
            a.free.put(d.minor(), f);
            if (!d.resources().isEmpty()) {
                a.total.put(d.minor(), d.resources());
            }
            boolean inUse = false;
            for (Map.Entry<String, BigDecimal> t : d.resources().entrySet()) {
                inUse |= t.getValue().compareTo(f.getOrDefault(t.getKey(), BigDecimal.ZERO)) != 0;
            }
            inUse |= d.resources().isEmpty() && !node.used(d.type(), d.minor()).isEmpty();
            a.used.put(d.minor(), inUse);
        }
        Found found = a.search(root, 0, 0);
        if (found == null) {
            return new Result(
                    Status.unschedulable(a.requiredScope.isEmpty() ? INSUFFICIENT : INSUFFICIENT_SCOPED), null);
        }
        return new Result(Status.SUCCESS, found.allocations());
    }

    /** The tree, or null when a GPU has no topology. */
    private static Scope tree(List<DeviceEntry> gpus) {
        if (gpus.isEmpty()) {
            return null;
        }
        Map<Integer, Map<String, List<Integer>>> byNuma = new TreeMap<>();
        List<Integer> all = new ArrayList<>();
        for (DeviceEntry d : gpus) {
            if (d.numaNode() == null) {
                return null;
            }
            byNuma.computeIfAbsent(d.numaNode(), n -> new TreeMap<>())
                    .computeIfAbsent(d.pcie(), p -> new ArrayList<>())
                    .add(d.minor());
            all.add(d.minor());
        }
        List<Scope> numaScopes = new ArrayList<>();
        for (Map<String, List<Integer>> pcies : byNuma.values()) {
            List<Scope> pcieScopes = new ArrayList<>();
            List<Integer> numaMinors = new ArrayList<>();
            for (List<Integer> minors : pcies.values()) {
                minors.sort(null);
                pcieScopes.add(new Scope(3, minors, List.of()));
                numaMinors.addAll(minors);
            }
            numaMinors.sort(null);
            numaScopes.add(new Scope(2, numaMinors, pcieScopes));
        }
        all.sort(null);
        return new Scope(1, all, numaScopes);
    }

    private Found search(Scope scope, int depth, int nonEmptyAncestors) {
        if (scope.minors().size() < req.numberOfGPUs()) {
            return null;
        }
        depth++;
        for (int m : scope.minors()) {
            if (used.getOrDefault(m, false)) {
                nonEmptyAncestors++;
                break;
            }
        }
        Found best = null;
        for (Scope child : scope.children()) {
            Found f = search(child, depth, nonEmptyAncestors);
            if (f == null) {
                continue;
            }
            if (best == null
                    || best.depth() < f.depth()
                    || (best.depth() == f.depth() && best.nonEmptyAncestors() < f.nonEmptyAncestors())) {
                best = f;
            } else if (req.gpuShared()
                    && best.depth() == f.depth()
                    && best.nonEmptyAncestors() == f.nonEmptyAncestors()
                    && best.score() < f.score()) {
                best = f;
            }
        }
        if (best != null) {
            return best;
        }
        if (LEVELS.getOrDefault(requiredScope, 0) > scope.level()) {
            return null;
        }
        List<GpuMemoryFill.Allocation> chosen = new ArrayList<>();
        int bestShared = -1;
        long bestScore = -1;
        for (int m : scope.minors()) {
            long[] check = deviceChecks.computeIfAbsent(m, this::check);
            if (check[0] == 0) {
                continue;
            }
            if (!req.gpuShared()) {
                chosen.add(new GpuMemoryFill.Allocation(m, req.requestsPerGPU()));
                if (chosen.size() == req.numberOfGPUs()) {
                    break;
                }
                continue;
            }
            if (check[1] > bestScore) {
                bestShared = m;
                bestScore = check[1];
            }
        }
        if (req.gpuShared()) {
            if (bestShared < 0) {
                return null;
            }
            chosen.add(new GpuMemoryFill.Allocation(bestShared, req.requestsPerGPU()));
        } else if (chosen.size() < req.numberOfGPUs()) {
            return null;
        }
        return new Found(chosen, depth, nonEmptyAncestors, bestScore);
    }

    /** {fits, score} of a device, computed once per allocation. */
    private long[] check(int minor) {
        Map<String, BigDecimal> f = free.getOrDefault(minor, Map.of());
        boolean fits = total.containsKey(minor) && DefaultAllocator.covers(f, req.requestsPerGPU());
        long score = 0;
        if (fits && req.gpuShared() && scorer != null) {
            // Koordinator passes (free, total) here where its scorer takes (total, free); kept, so
            // the same device wins as there (a partly used device scores as if full)
            score = scorer.score(req.requestsPerGPU(), f, total.get(minor));
        }
        return new long[] {fits ? 1 : 0, score};
    }
}
