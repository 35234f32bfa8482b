package io.hotsched.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.Counter;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * The devices drivers publish, by pool: the slices of a pool's newest generation only, a pool
 * whose newest generation has fewer slices than {@code resourceSliceCount} marked incomplete, one
 * that names a device twice marked invalid. {@link #candidates} gives a node's devices: those of
 * its own slices ({@code nodeName}), of slices for all nodes, of slices whose node selector
 * matches it, and, for {@code perDeviceNodeSelection}, each device that says the same of itself.
 * Pools come in the order of driver and pool name, devices in the order their slices list them.
 */
final class DevicePools {

    /** How a device is reachable from the node it was found for: decides the allocation's node selector. */
    enum Reach {
        NODE,
        ALL,
        SELECTOR
    }

    /** One pool at its newest generation. */
    static final class Pool {
        final String driver;
        final String name;
        final List<ResourceSlice> slices = new ArrayList<>();
        long generation = Long.MIN_VALUE;
        boolean incomplete;
        boolean invalid;
        /** The pool's shared counters (partitionable devices): counter set, then counter, to its value. */
        final Map<String, Map<String, BigDecimal>> counters = new HashMap<>();

        Pool(String driver, String name) {
            this.driver = driver;
            this.name = name;
        }

        String id() {
            return driver + "/" + name;
        }
    }

    /** A device a node can use. */
    record Candidate(Pool pool, Device device, String id, Reach reach, NodeSelector selector) {}

    private final List<Pool> pools;

    private DevicePools(List<Pool> pools) {
        this.pools = pools;
    }

    static DevicePools of(List<ResourceSlice> slices) {
        Map<String, Pool> byId = new TreeMap<>();
        for (ResourceSlice s : slices) {
            ResourceSliceSpec spec = s.getSpec();
            if (spec == null || spec.getPool() == null) {
                continue;
            }
            Pool p = byId.computeIfAbsent(
                    spec.getDriver() + "/" + spec.getPool().getName(),
                    k -> new Pool(spec.getDriver(), spec.getPool().getName()));
            long gen =
                    spec.getPool().getGeneration() == null ? 0 : spec.getPool().getGeneration();
            if (gen > p.generation) {
                p.generation = gen;
                p.slices.clear();
            }
            if (gen == p.generation) {
                p.slices.add(s);
            }
        }
        for (Pool p : byId.values()) {
            p.slices.sort(
                    Comparator.comparing(s -> Objects.toString(s.getMetadata().getName(), "")));
            Long count = p.slices.get(0).getSpec().getPool().getResourceSliceCount();
            p.incomplete = count != null && p.slices.size() < count;
            Set<String> names = new HashSet<>();
            for (ResourceSlice s : p.slices) {
                for (Device d : devices(s)) {
                    if (!names.add(d.getName())) {
                        p.invalid = true;
                    }
                }
                if (s.getSpec().getSharedCounters() != null) {
                    for (CounterSet cs : s.getSpec().getSharedCounters()) {
                        if (p.counters.containsKey(cs.getName())) {
                            p.invalid = true; // upstream: duplicate counter set name
                        }
                        Map<String, BigDecimal> values = p.counters.computeIfAbsent(cs.getName(), k -> new HashMap<>());
                        if (cs.getCounters() != null) {
                            cs.getCounters().forEach((n, c) -> values.put(n, amount(c)));
                        }
                    }
                }
            }
        }
        for (Pool p : byId.values()) {
            p.invalid |= !countersKnown(p);
        }
        return new DevicePools(List.copyOf(byId.values()));
    }

    /** Every device consumes counters of sets and names its pool shares; else upstream holds the pool invalid. */
    private static boolean countersKnown(Pool p) {
        for (ResourceSlice s : p.slices) {
            for (Device d : devices(s)) {
                if (d.getConsumesCounters() == null) {
                    continue;
                }
                for (var c : d.getConsumesCounters()) {
                    Map<String, BigDecimal> set = p.counters.get(c.getCounterSet());
                    if (set == null
                            || (c.getCounters() != null
                                    && !set.keySet().containsAll(c.getCounters().keySet()))) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    static BigDecimal amount(Counter c) {
        return c == null || c.getValue() == null ? BigDecimal.ZERO : Quantity.getAmountInBytes(c.getValue());
    }

    static List<Device> devices(ResourceSlice s) {
        return s.getSpec().getDevices() == null ? List.of() : s.getSpec().getDevices();
    }

    List<Pool> pools() {
        return pools;
    }

    /** The devices {@code node} can use, with the pools they come from. */
    List<Candidate> candidates(Node node) {
        List<Candidate> out = new ArrayList<>();
        for (Pool p : pools) {
            for (ResourceSlice s : p.slices) {
                ResourceSliceSpec spec = s.getSpec();
                boolean perDevice = Boolean.TRUE.equals(spec.getPerDeviceNodeSelection());
                Reach sliceReach =
                        perDevice ? null : reach(spec.getNodeName(), spec.getAllNodes(), spec.getNodeSelector(), node);
                if (!perDevice && sliceReach == null) {
                    continue;
                }
                for (Device d : devices(s)) {
                    Reach r =
                            perDevice ? reach(d.getNodeName(), d.getAllNodes(), d.getNodeSelector(), node) : sliceReach;
                    if (r == null) {
                        continue;
                    }
                    NodeSelector sel =
                            r != Reach.SELECTOR ? null : perDevice ? d.getNodeSelector() : spec.getNodeSelector();
                    out.add(new Candidate(p, d, p.id() + "/" + d.getName(), r, sel));
                }
            }
        }
        return out;
    }

    private static Reach reach(String nodeName, Boolean allNodes, NodeSelector selector, Node node) {
        if (nodeName != null && !nodeName.isEmpty()) {
            return nodeName.equals(node.getMetadata().getName()) ? Reach.NODE : null;
        }
        if (Boolean.TRUE.equals(allNodes)) {
            return Reach.ALL;
        }
        return selector != null && NodeMatch.matches(selector, node) ? Reach.SELECTOR : null;
    }
}
