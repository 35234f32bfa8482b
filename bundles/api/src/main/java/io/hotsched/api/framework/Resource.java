package io.hotsched.api.framework;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * An amount of each resource as whole numbers, parsed once from Kubernetes quantities: cpu in
 * millicores, memory and ephemeral storage in bytes, the number of pods, and every other resource
 * (extended resources, hugepages) in its own whole units, rounded up as upstream's
 * {@code MilliValue()} and {@code Value()} do. Immutable.
 */
public final class Resource {

    public static final String CPU = "cpu";
    public static final String MEMORY = "memory";
    public static final String EPHEMERAL_STORAGE = "ephemeral-storage";
    public static final String PODS = "pods";

    /** Nothing of anything. */
    public static final Resource ZERO = new Resource(0, 0, 0, 0, Map.of());

    private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);
    /** What kube-apiserver says a quantity must match. */
    private static final String QUANTITY_PATTERN = "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$";

    private final long milliCpu;
    private final long memory;
    private final long ephemeralStorage;
    private final long allowedPods;
    private final Map<String, Long> scalars;

    private Resource(long milliCpu, long memory, long ephemeralStorage, long allowedPods, Map<String, Long> scalars) {
        this.milliCpu = milliCpu;
        this.memory = memory;
        this.ephemeralStorage = ephemeralStorage;
        this.allowedPods = allowedPods;
        this.scalars = scalars;
    }

    public static Resource of(long milliCpu, long memory) {
        return new Resource(milliCpu, memory, 0, 0, Map.of());
    }

    /**
     * Parses a resource list ({@code requests}, {@code allocatable}); null means nothing. An amount
     * that is not a quantity throws an IllegalArgumentException naming the resource and the value,
     * in kube-apiserver's words; so does one too large for a long, saying so.
     */
    public static Resource parse(Map<String, Quantity> quantities) {
        if (quantities == null || quantities.isEmpty()) {
            return ZERO;
        }
        Builder b = new Builder();
        for (Map.Entry<String, Quantity> e : quantities.entrySet()) {
            try {
                b.add(e.getKey(), e.getValue());
            } catch (ArithmeticException tooLarge) {
                // a valid quantity (kube-apiserver stores 1e30 and 8Ei) past what a long holds
                throw new IllegalArgumentException(e.getKey() + ": Invalid value: \"" + e.getValue()
                        + "\": a valid quantity, but too large for the scheduler, which counts " + e.getKey()
                        + " in " + unit(e.getKey()) + " as a 64-bit integer (at most " + Long.MAX_VALUE
                        + (CPU.equals(e.getKey()) ? "m" : "") + ")");
            } catch (IllegalArgumentException | NullPointerException bad) {
                throw new IllegalArgumentException(e.getKey() + ": Invalid value: \"" + e.getValue()
                        + "\": quantities must match the regular expression '" + QUANTITY_PATTERN + "'");
            }
        }
        return b.build();
    }

    /** What the scheduler counts a resource in, for messages. */
    private static String unit(String resource) {
        if (CPU.equals(resource)) {
            return "millicores";
        }
        return MEMORY.equals(resource) || EPHEMERAL_STORAGE.equals(resource) || resource.startsWith("hugepages-")
                ? "bytes"
                : "units";
    }

    /** Cpu of a quantity in millicores, rounded up. */
    public static long milliValue(Quantity q) {
        return q.getNumericalAmount()
                .multiply(THOUSAND)
                .setScale(0, RoundingMode.CEILING)
                .longValueExact();
    }

    /** A quantity in whole units, rounded up. */
    public static long value(Quantity q) {
        return q.getNumericalAmount().setScale(0, RoundingMode.CEILING).longValueExact();
    }

    public long milliCpu() {
        return milliCpu;
    }

    public long memory() {
        return memory;
    }

    public long ephemeralStorage() {
        return ephemeralStorage;
    }

    /** The {@code pods} resource (allocatable pod count). */
    public long allowedPods() {
        return allowedPods;
    }

    /** Resources other than cpu, memory, ephemeral-storage and pods, by name; sorted, unmodifiable. */
    public Map<String, Long> scalars() {
        return scalars;
    }

    /** The amount of any resource by its Kubernetes name; 0 when absent. */
    public long get(String name) {
        return switch (name) {
            case CPU -> milliCpu;
            case MEMORY -> memory;
            case EPHEMERAL_STORAGE -> ephemeralStorage;
            case PODS -> allowedPods;
            default -> scalars.getOrDefault(name, 0L);
        };
    }

    /** True when every amount is 0. */
    public boolean isZero() {
        if (milliCpu != 0 || memory != 0 || ephemeralStorage != 0 || allowedPods != 0) {
            return false;
        }
        for (long v : scalars.values()) {
            if (v != 0) {
                return false;
            }
        }
        return true;
    }

    public Resource plus(Resource o) {
        return combine(o, 1);
    }

    public Resource minus(Resource o) {
        return combine(o, -1);
    }

    private Resource combine(Resource o, long sign) {
        if (o.isZero()) {
            return this;
        }
        Map<String, Long> s = scalars;
        if (!o.scalars.isEmpty()) {
            TreeMap<String, Long> m = new TreeMap<>(scalars);
            o.scalars.forEach((k, v) -> m.merge(k, sign * v, Long::sum));
            s = Collections.unmodifiableMap(m);
        }
        return new Resource(
                milliCpu + sign * o.milliCpu,
                memory + sign * o.memory,
                ephemeralStorage + sign * o.ephemeralStorage,
                allowedPods + sign * o.allowedPods,
                s);
    }

    /** The larger of each amount. */
    public Resource max(Resource o) {
        Map<String, Long> s = scalars;
        if (!o.scalars.isEmpty()) {
            TreeMap<String, Long> m = new TreeMap<>(scalars);
            o.scalars.forEach((k, v) -> m.merge(k, v, Math::max));
            s = Collections.unmodifiableMap(m);
        }
        return new Resource(
                Math.max(milliCpu, o.milliCpu),
                Math.max(memory, o.memory),
                Math.max(ephemeralStorage, o.ephemeralStorage),
                Math.max(allowedPods, o.allowedPods),
                s);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Resource r
                && r.milliCpu == milliCpu
                && r.memory == memory
                && r.ephemeralStorage == ephemeralStorage
                && r.allowedPods == allowedPods
                && r.scalars.equals(scalars);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(milliCpu) * 31 + Long.hashCode(memory);
    }

    @Override
    public String toString() {
        StringBuilder b =
                new StringBuilder("{cpu=").append(milliCpu).append("m, memory=").append(memory);
        if (ephemeralStorage != 0) {
            b.append(", ephemeral-storage=").append(ephemeralStorage);
        }
        if (allowedPods != 0) {
            b.append(", pods=").append(allowedPods);
        }
        scalars.forEach((k, v) -> b.append(", ").append(k).append('=').append(v));
        return b.append('}').toString();
    }

    /** Accumulates amounts; for building a {@link Resource} from many parts without copies. */
    public static final class Builder {
        private long milliCpu;
        private long memory;
        private long ephemeralStorage;
        private long allowedPods;
        private TreeMap<String, Long> scalars;

        public Builder add(String name, Quantity q) {
            if (q == null) {
                return this;
            }
            return add(name, CPU.equals(name) ? milliValue(q) : value(q));
        }

        public Builder add(String name, long amount) {
            switch (name) {
                case CPU -> milliCpu += amount;
                case MEMORY -> memory += amount;
                case EPHEMERAL_STORAGE -> ephemeralStorage += amount;
                case PODS -> allowedPods += amount;
                default -> {
                    if (scalars == null) {
                        scalars = new TreeMap<>();
                    }
                    scalars.merge(name, amount, Long::sum);
                }
            }
            return this;
        }

        public Builder add(Resource r) {
            milliCpu += r.milliCpu;
            memory += r.memory;
            ephemeralStorage += r.ephemeralStorage;
            allowedPods += r.allowedPods;
            r.scalars.forEach((k, v) -> add(k, v));
            return this;
        }

        public Resource build() {
            if (milliCpu == 0 && memory == 0 && ephemeralStorage == 0 && allowedPods == 0 && scalars == null) {
                return ZERO;
            }
            return new Resource(
                    milliCpu,
                    memory,
                    ephemeralStorage,
                    allowedPods,
                    scalars == null ? Map.of() : Collections.unmodifiableMap(scalars));
        }
    }
}
