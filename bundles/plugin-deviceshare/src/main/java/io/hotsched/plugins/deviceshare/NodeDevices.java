package io.hotsched.plugins.deviceshare;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * A node's devices with what is used of them: per device type and minor, the total (none for an
 * unhealthy device), the used amounts (the pods' allocations; may exceed the total), and the free
 * amounts (total less used, never negative). Preemption victims' amounts can be given back.
 */
public final class NodeDevices {

    private final List<DeviceEntry> devices;
    private final Map<String, Map<Integer, Map<String, BigDecimal>>> used;

    public NodeDevices(List<DeviceEntry> devices, Map<String, Map<Integer, Map<String, BigDecimal>>> used) {
        this.devices = List.copyOf(devices);
        this.used = used;
    }

    public List<DeviceEntry> devices(String type) {
        List<DeviceEntry> out = new ArrayList<>();
        for (DeviceEntry d : devices) {
            if (d.type().equals(type)) {
                out.add(d);
            }
        }
        return out;
    }

    List<DeviceEntry> all() {
        return devices;
    }

    public Map<String, BigDecimal> used(String type, int minor) {
        return used.getOrDefault(type, Map.of()).getOrDefault(minor, Map.of());
    }

    /**
     * What is free on a device; with {@code preemptible} amounts of victims on it, the total less
     * what stays used once they are gone, when that leaves anything.
     */
    Map<String, BigDecimal> free(DeviceEntry d, Map<String, BigDecimal> preemptible) {
        Map<String, BigDecimal> u = used(d.type(), d.minor());
        Map<String, BigDecimal> free = new TreeMap<>();
        d.resources()
                .forEach((r, total) -> free.put(
                        r, total.subtract(u.getOrDefault(r, BigDecimal.ZERO)).max(BigDecimal.ZERO)));
        if (preemptible != null && !preemptible.isEmpty()) {
            Map<String, BigDecimal> remaining = new TreeMap<>();
            boolean any = false;
            for (Map.Entry<String, BigDecimal> e : d.resources().entrySet()) {
                BigDecimal stillUsed = u.getOrDefault(e.getKey(), BigDecimal.ZERO)
                        .subtract(preemptible.getOrDefault(e.getKey(), BigDecimal.ZERO))
                        .max(BigDecimal.ZERO);
                BigDecimal left = e.getValue().subtract(stillUsed).max(BigDecimal.ZERO);
                remaining.put(e.getKey(), left);
                any |= left.signum() > 0;
            }
            if (any) {
                return remaining;
            }
        }
        return free;
    }

    /**
     * This node with only the designated devices of {@code type}, each offering no more than the
     * designated amounts (a designated allocation is re-checked, not moved).
     */
    NodeDevices onlyDesignated(String type, List<GpuMemoryFill.Allocation> designated) {
        List<DeviceEntry> kept = new ArrayList<>();
        Map<String, Map<Integer, Map<String, BigDecimal>>> keptUsed = new TreeMap<>(used);
        Map<Integer, Map<String, BigDecimal>> usedOfType = new TreeMap<>();
        for (DeviceEntry d : devices) {
            if (!d.type().equals(type)) {
                kept.add(d);
                continue;
            }
            for (GpuMemoryFill.Allocation a : designated) {
                if (a.minor() == d.minor()) {
                    // free capped at the designated amounts: total = used + min(free, designated)
                    Map<String, BigDecimal> free = free(d, null);
                    Map<String, BigDecimal> total = new TreeMap<>();
                    Map<String, BigDecimal> u = used(type, d.minor());
                    d.resources()
                            .forEach((r, t) -> total.put(
                                    r,
                                    u.getOrDefault(r, BigDecimal.ZERO)
                                            .add(free.getOrDefault(r, BigDecimal.ZERO)
                                                    .min(a.resources().getOrDefault(r, BigDecimal.ZERO)))));
                    kept.add(new DeviceEntry(
                            d.type(), d.minor(), d.healthy(), total, d.id(), d.labels(), d.numaNode(), d.pcie()));
                    usedOfType.put(d.minor(), u);
                }
            }
        }
        keptUsed.put(type, usedOfType);
        return new NodeDevices(kept, keptUsed);
    }

    /** This node with, of {@code type}, only the devices {@code keep} accepts (a hint's selector). */
    NodeDevices only(String type, Predicate<DeviceEntry> keep) {
        List<DeviceEntry> kept = new ArrayList<>();
        for (DeviceEntry d : devices) {
            if (!d.type().equals(type) || keep.test(d)) {
                kept.add(d);
            }
        }
        return new NodeDevices(kept, used);
    }

    /**
     * This node with, of {@code type}, only the devices on PCIe switches whose devices of that type
     * are all completely free (the {@code PCIeLevel} exclusive policy).
     */
    NodeDevices onlyFreePcie(String type, Map<Integer, Map<String, BigDecimal>> preemptible) {
        Set<String> busy = new HashSet<>();
        for (DeviceEntry d : devices(type)) {
            Map<String, BigDecimal> f = free(d, preemptible == null ? null : preemptible.get(d.minor()));
            for (Map.Entry<String, BigDecimal> t : d.resources().entrySet()) {
                if (t.getValue().compareTo(f.getOrDefault(t.getKey(), BigDecimal.ZERO)) != 0) {
                    busy.add(String.valueOf(d.pcie()));
                }
            }
        }
        return only(type, d -> d.pcie() != null && !busy.contains(d.pcie()));
    }
}
