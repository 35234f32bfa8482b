package io.hotsched.plugins.deviceshare;

import io.hotsched.api.framework.StateData;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What preemption's dry run has taken away from each node so far: per node, type and minor, the
 * device amounts of the pods it removed (less those it added back). Filter and Score give these
 * back to the free pool. Lives in the cycle state the dry run copies, so it is copied deeply.
 */
public final class Preemptible implements StateData {

    private final Map<String, Map<String, Map<Integer, Map<String, BigDecimal>>>> byNode;

    public Preemptible() {
        this(new TreeMap<>());
    }

    private Preemptible(Map<String, Map<String, Map<Integer, Map<String, BigDecimal>>>> byNode) {
        this.byNode = byNode;
    }

    /** The amounts per type and minor on {@code node}; empty when nothing was removed there. */
    public Map<String, Map<Integer, Map<String, BigDecimal>>> on(String node) {
        return byNode.getOrDefault(node, Map.of());
    }

    /** {@code sign} 1: a victim's allocations become preemptible; -1: a pod added back takes them again. */
    public void add(String node, Map<String, List<GpuMemoryFill.Allocation>> allocations, int sign) {
        Map<String, Map<Integer, Map<String, BigDecimal>>> types = byNode.computeIfAbsent(node, n -> new TreeMap<>());
        allocations.forEach((type, list) -> {
            Map<Integer, Map<String, BigDecimal>> minors = types.computeIfAbsent(type, t -> new TreeMap<>());
            for (GpuMemoryFill.Allocation a : list) {
                if (a.resources() == null) {
                    continue;
                }
                Map<String, BigDecimal> amounts = minors.computeIfAbsent(a.minor(), m -> new TreeMap<>());
                a.resources().forEach((r, v) -> amounts.merge(r, sign > 0 ? v : v.negate(), BigDecimal::add));
                amounts.replaceAll((r, v) -> v.max(BigDecimal.ZERO));
            }
        });
    }

    @Override
    public StateData copy() {
        Map<String, Map<String, Map<Integer, Map<String, BigDecimal>>>> c = new TreeMap<>();
        byNode.forEach((node, types) -> {
            Map<String, Map<Integer, Map<String, BigDecimal>>> t = new TreeMap<>();
            types.forEach((type, minors) -> {
                Map<Integer, Map<String, BigDecimal>> m = new TreeMap<>();
                minors.forEach((minor, amounts) -> m.put(minor, new TreeMap<>(amounts)));
                t.put(type, m);
            });
            c.put(node, t);
        });
        return new Preemptible(c);
    }
}
