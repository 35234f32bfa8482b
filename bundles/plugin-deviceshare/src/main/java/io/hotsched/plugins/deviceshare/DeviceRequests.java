package io.hotsched.plugins.deviceshare;

import static io.hotsched.plugins.deviceshare.DeviceResources.*;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * A pod's device requests as DeviceShare accepts them: split per device type, each part checked
 * against the combinations Koordinator allows, then normalized (whole cards and
 * {@code koordinator.sh/gpu} become gpu-core and gpu-memory-ratio). Amounts are exact decimals:
 * percent units for the percent resources, bytes for gpu-memory.
 */
public final class DeviceRequests {

    private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

    /** Why a request is refused; PreFilter reports it as UnschedulableAndUnresolvable. */
    public static final class Invalid extends Exception {
        private static final long serialVersionUID = 1L;

        Invalid(String message) {
            super(message, null, false, false);
        }
    }

    /** An allowed combination: the exact set of names, and the rule its amounts must follow. */
    private record Allowed(Set<String> names, Predicate<Map<String, BigDecimal>> rule) {}

    private static final List<Allowed> ALLOWED = List.of(
            new Allowed(Set.of(NVIDIA_GPU), r -> true),
            new Allowed(Set.of(AMD_GPU), r -> true),
            new Allowed(Set.of(HYGON_DCU), r -> true),
            new Allowed(Set.of(GPU), r -> percent(r.get(GPU))),
            new Allowed(Set.of(GPU_MEMORY), r -> true),
            new Allowed(Set.of(GPU_MEMORY_RATIO), r -> percent(r.get(GPU_MEMORY_RATIO))),
            new Allowed(Set.of(GPU_CORE, GPU_MEMORY), r -> percent(r.get(GPU_CORE))),
            new Allowed(
                    Set.of(GPU_CORE, GPU_MEMORY_RATIO),
                    r -> percent(r.get(GPU_CORE)) && percent(r.get(GPU_MEMORY_RATIO))),
            new Allowed(Set.of(NPU_CORE, GPU_MEMORY_RATIO), r -> percent(r.get(GPU_MEMORY_RATIO))),
            new Allowed(Set.of(GPU_SHARED, GPU_MEMORY), DeviceRequests::sharedRule),
            new Allowed(Set.of(GPU_SHARED, GPU_MEMORY_RATIO), DeviceRequests::sharedRule),
            new Allowed(Set.of(GPU_SHARED, GPU_CORE, GPU_MEMORY), DeviceRequests::sharedRule),
            new Allowed(Set.of(GPU_SHARED, GPU_CORE, GPU_MEMORY_RATIO), DeviceRequests::sharedRule),
            new Allowed(Set.of(GPU_SHARED, NPU_CORE, NPU_CPU, GPU_MEMORY), DeviceRequests::npuRule),
            new Allowed(Set.of(GPU_SHARED, NPU_CORE, NPU_CPU, NPU_DVPP, GPU_MEMORY), DeviceRequests::npuRule),
            new Allowed(Set.of(FPGA), r -> percent(r.get(FPGA))),
            new Allowed(Set.of(RDMA), r -> percent(r.get(RDMA))));

    private DeviceRequests() {}

    /** At most 100, or whole hundreds: a share of one device, or whole devices. */
    static boolean percent(BigDecimal v) {
        return v.compareTo(HUNDRED) <= 0 || v.remainder(HUNDRED).signum() == 0;
    }

    /** gpu-core and gpu-memory-ratio spread evenly over gpu.shared devices, at most a whole device each. */
    private static boolean sharedRule(Map<String, BigDecimal> r) {
        BigDecimal shared = r.get(GPU_SHARED);
        if (shared.signum() <= 0) {
            return false;
        }
        for (String n : List.of(GPU_CORE, GPU_MEMORY_RATIO)) {
            BigDecimal v = r.get(n);
            if (v != null
                    && (v.remainder(shared).signum() != 0
                            || v.divide(shared, RoundingMode.DOWN).compareTo(HUNDRED) > 0)) {
                return false;
            }
        }
        return true;
    }

    /** A shared NPU: one device, and the dvpp share within it. */
    private static boolean npuRule(Map<String, BigDecimal> r) {
        BigDecimal dvpp = r.get(NPU_DVPP);
        return r.get(GPU_SHARED).compareTo(BigDecimal.ONE) == 0 && (dvpp == null || dvpp.compareTo(HUNDRED) <= 0);
    }

    /** The device parts of a pod's requests: type to name to amount, zero amounts and other resources left out. */
    public static Map<String, Map<String, BigDecimal>> byType(Map<String, BigDecimal> podRequests) {
        Map<String, Map<String, BigDecimal>> out = new LinkedHashMap<>();
        for (String type : TYPES) {
            Map<String, BigDecimal> part = new TreeMap<>();
            podRequests.forEach((name, amount) -> {
                if (type.equals(TYPE_OF.get(name)) && amount.signum() != 0) {
                    part.put(name, amount);
                }
            });
            if (!part.isEmpty()) {
                out.put(type, part);
            }
        }
        return out;
    }

    /** Checks one device type's part of a request; returns the names of its combination. */
    public static Set<String> validate(Map<String, BigDecimal> part) throws Invalid {
        if (part == null || part.isEmpty()) {
            throw new Invalid("pod request should not be empty");
        }
        for (String unit : List.of(GPU, FPGA, RDMA)) {
            BigDecimal v = part.get(unit);
            if (v != null && !percent(v)) {
                throw new Invalid("invalid resource unit " + unit + ": "
                        + v.stripTrailingZeros().toPlainString());
            }
        }
        Set<String> names = new TreeSet<>(part.keySet());
        for (Allowed a : ALLOWED) {
            if (a.names().equals(names) && a.rule().test(part)) {
                return names;
            }
        }
        throw new Invalid("invalid resource device requests: [" + String.join(" ", names) + "]");
    }

    /** The flags of a combination, sorted. */
    public static List<String> flags(Set<String> names) {
        return names.stream().map(FLAG::get).sorted().toList();
    }

    /** A valid part in the form allocation works with: whole cards and koordinator.sh/gpu as core and memory ratio. */
    public static Map<String, BigDecimal> normalize(Map<String, BigDecimal> part) {
        if (part == null) {
            return null;
        }
        for (String card : List.of(NVIDIA_GPU, AMD_GPU, HYGON_DCU)) {
            if (part.containsKey(card)) {
                BigDecimal percent = part.get(card).multiply(HUNDRED);
                return new TreeMap<>(Map.of(GPU_CORE, percent, GPU_MEMORY_RATIO, percent));
            }
        }
        if (part.containsKey(GPU)) {
            return new TreeMap<>(Map.of(GPU_CORE, part.get(GPU), GPU_MEMORY_RATIO, part.get(GPU)));
        }
        return new TreeMap<>(part);
    }
}
