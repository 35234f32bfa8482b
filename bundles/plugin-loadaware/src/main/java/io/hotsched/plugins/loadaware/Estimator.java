package io.hotsched.plugins.loadaware;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hotsched.api.framework.Resource;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Koordinator's default estimator: what a pod will use, from its requests and limits scaled by
 * per-resource factors (in the resources of its priority class), and what a node offers.
 */
public final class Estimator {

    static final String SCALING_FACTORS_ANNOTATION = "scheduling.koordinator.sh/load-estimated-scaling-factors";
    static final String AFTER_SCHEDULED_ANNOTATION =
            "scheduling.koordinator.sh/load-estimated-seconds-after-pod-scheduled";
    static final String AFTER_INITIALIZED_ANNOTATION =
            "scheduling.koordinator.sh/load-estimated-seconds-after-initialized";
    static final String RAW_ALLOCATABLE_ANNOTATION = "node.koordinator.sh/raw-allocatable";
    static final long DEFAULT_MILLI_CPU = 250;
    static final long DEFAULT_MEMORY = 200L * 1024 * 1024;

    private final LoadAwareArgs args;
    private final Vectorizer vectorizer;

    public Estimator(LoadAwareArgs args, Vectorizer vectorizer) {
        this.args = args;
        this.vectorizer = vectorizer;
    }

    /** The pod's estimated usage, as a vector; all zero when no factor names a vectorized resource. */
    public long[] estimatePod(Pod pod) {
        Map<String, Long> factors = new TreeMap<>(args.estimatedScalingFactors());
        if (args.allowCustomizeEstimation()) {
            factors.putAll(annotatedFactors(pod));
        }
        PriorityClass pc = PriorityClass.of(pod);
        Map<String, BigDecimal> requests = PodResources.requests(pod);
        Map<String, BigDecimal> limits = PodResources.limits(pod);
        long[] v = new long[vectorizer.size()];
        for (Map.Entry<String, Long> f : factors.entrySet()) {
            int i = vectorizer.indexOf(f.getKey());
            if (i < 0) {
                continue;
            }
            String real = translate(pc, f.getKey());
            if (real == null) {
                continue;
            }
            BigDecimal request = requests.getOrDefault(real, BigDecimal.ZERO);
            BigDecimal limit = limits.getOrDefault(real, BigDecimal.ZERO);
            BigDecimal q = request.max(limit);
            if (q.signum() == 0) {
                v[i] = switch (real) {
                    case "cpu", "kubernetes.io/batch-cpu" -> DEFAULT_MILLI_CPU;
                    case "memory", "kubernetes.io/batch-memory" -> DEFAULT_MEMORY;
                    default -> 0;
                };
                continue;
            }
            long amount = units(real, q);
            long est = Math.round((double) amount * f.getValue() / 100.0);
            if (limit.signum() > 0) {
                est = Math.min(est, units(real, limit));
            }
            v[i] = est;
        }
        return v;
    }

    private static long units(String name, BigDecimal q) {
        BigDecimal scaled = name.equals(Resource.CPU) ? q.multiply(BigDecimal.valueOf(1000)) : q;
        return scaled.setScale(0, RoundingMode.CEILING).longValueExact();
    }

    /** The resource a pod of class {@code pc} really asks for when {@code name} is estimated; null for none. */
    static String translate(PriorityClass pc, String name) {
        return switch (pc) {
            case BATCH ->
                switch (name) {
                    case "cpu" -> "kubernetes.io/batch-cpu";
                    case "memory" -> "kubernetes.io/batch-memory";
                    default -> name;
                };
            case MID ->
                switch (name) {
                    case "cpu" -> "kubernetes.io/mid-cpu";
                    case "memory" -> "kubernetes.io/mid-memory";
                    default -> name;
                };
            case FREE -> null;
            default -> name;
        };
    }

    private static Map<String, Long> annotatedFactors(Pod pod) {
        return Json.longs(Json.read(annotation(pod, SCALING_FACTORS_ANNOTATION)));
    }

    /**
     * When the pod's reported usage stops being trusted less than its estimate, in epoch millis,
     * or 0 for never: after its Initialized time plus the configured seconds, else after
     * {@code timestampMillis} (when it was scheduled) plus the configured seconds.
     */
    public long deadline(Pod pod, long timestampMillis) {
        long afterScheduled =
                args.estimatedSecondsAfterPodScheduled() == null ? -1 : args.estimatedSecondsAfterPodScheduled();
        long afterInitialized =
                args.estimatedSecondsAfterInitialized() == null ? -1 : args.estimatedSecondsAfterInitialized();
        if (args.allowCustomizeEstimation() && pod != null) {
            afterScheduled = seconds(annotation(pod, AFTER_SCHEDULED_ANNOTATION), afterScheduled);
            afterInitialized = seconds(annotation(pod, AFTER_INITIALIZED_ANNOTATION), afterInitialized);
        }
        if (afterInitialized > 0 && pod != null) {
            Instant initialized = conditionTime(pod, "Initialized");
            if (initialized != null) {
                return initialized.toEpochMilli() + afterInitialized * 1000;
            }
        }
        if (afterScheduled > 0) {
            return timestampMillis + afterScheduled * 1000;
        }
        return 0;
    }

    private static long seconds(String value, long otherwise) {
        if (value == null) {
            return otherwise;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }

    /** The last transition time of the pod's condition {@code type} when it is True, or null. */
    static Instant conditionTime(Pod pod, String type) {
        if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
            return null;
        }
        for (PodCondition c : pod.getStatus().getConditions()) {
            if (type.equals(c.getType()) && "True".equals(c.getStatus()) && c.getLastTransitionTime() != null) {
                try {
                    return Instant.parse(c.getLastTransitionTime());
                } catch (RuntimeException e) {
                    return null;
                }
            }
        }
        return null;
    }

    /** The node's allocatable, overridden resource by resource by a valid, differing raw-allocatable annotation. */
    public Map<String, Quantity> estimateNode(Node node) {
        Map<String, Quantity> alloc =
                node.getStatus() == null || node.getStatus().getAllocatable() == null
                        ? Map.of()
                        : node.getStatus().getAllocatable();
        String raw = node.getMetadata() == null
                ? null
                : annotation(node.getMetadata().getAnnotations(), RAW_ALLOCATABLE_ANNOTATION);
        Map<String, Quantity> rawList = Json.quantities(Json.read(raw));
        if (rawList == null || rawList.isEmpty() || sameAmounts(rawList, alloc)) {
            return alloc;
        }
        Map<String, Quantity> out = new LinkedHashMap<>(alloc);
        out.putAll(rawList);
        return out;
    }

    private static boolean sameAmounts(Map<String, Quantity> a, Map<String, Quantity> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (Map.Entry<String, Quantity> e : a.entrySet()) {
            Quantity o = b.get(e.getKey());
            if (o == null || o.getNumericalAmount().compareTo(e.getValue().getNumericalAmount()) != 0) {
                return false;
            }
        }
        return true;
    }

    static String annotation(Pod pod, String key) {
        return pod.getMetadata() == null ? null : annotation(pod.getMetadata().getAnnotations(), key);
    }

    private static String annotation(Map<String, String> annotations, String key) {
        return annotations == null ? null : annotations.get(key);
    }
}
