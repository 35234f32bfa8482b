package io.hotsched.plugins.loadaware;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A pod's requests or limits as Kubernetes totals them: the containers' sum, at least each init
 * container's (restartable sidecars add to the sum), plus the pod overhead. Exact amounts, so
 * cpu can be read in millicores and the rest in units without double rounding.
 */
final class PodResources {

    private PodResources() {}

    static Map<String, BigDecimal> requests(Pod pod) {
        return total(pod, ResourceRequirements::getRequests);
    }

    static Map<String, BigDecimal> limits(Pod pod) {
        return total(pod, ResourceRequirements::getLimits);
    }

    private static Map<String, BigDecimal> total(Pod pod, Function<ResourceRequirements, Map<String, Quantity>> which) {
        Map<String, BigDecimal> sum = new HashMap<>();
        PodSpec spec = pod.getSpec();
        if (spec == null) {
            return sum;
        }
        for (Container c : list(spec.getContainers())) {
            add(sum, amounts(c, which));
        }
        Map<String, BigDecimal> sidecars = new HashMap<>();
        for (Container c : list(spec.getInitContainers())) {
            Map<String, BigDecimal> a = amounts(c, which);
            if ("Always".equals(c.getRestartPolicy())) {
                add(sum, a);
                add(sidecars, a);
            } else {
                // an init container runs next to the sidecars started before it
                Map<String, BigDecimal> withSidecars = new HashMap<>(sidecars);
                add(withSidecars, a);
                withSidecars.forEach((k, v) -> sum.merge(k, v, BigDecimal::max));
            }
        }
        if (spec.getOverhead() != null) {
            spec.getOverhead().forEach((k, q) -> sum.merge(k, q.getNumericalAmount(), BigDecimal::add));
        }
        return sum;
    }

    private static Map<String, BigDecimal> amounts(
            Container c, Function<ResourceRequirements, Map<String, Quantity>> which) {
        Map<String, BigDecimal> out = new HashMap<>();
        if (c.getResources() != null && which.apply(c.getResources()) != null) {
            which.apply(c.getResources()).forEach((k, q) -> out.put(k, q.getNumericalAmount()));
        }
        return out;
    }

    private static void add(Map<String, BigDecimal> into, Map<String, BigDecimal> more) {
        more.forEach((k, v) -> into.merge(k, v, BigDecimal::add));
    }

    private static <T> List<T> list(List<T> l) {
        return l == null ? List.of() : l;
    }
}
