package io.hotsched.api.framework;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.util.List;
import java.util.Map;

/**
 * What a pod requests of a node, computed as upstream does: the sum of the app containers and
 * the restartable init containers (sidecars), or the largest init container (plus the sidecars
 * started before it) if that is larger, plus the pod overhead.
 */
final class PodRequests {

    /** Upstream's defaults for a container that names no cpu or memory request, used for scoring. */
    static final long DEFAULT_MILLI_CPU = 100;

    static final long DEFAULT_MEMORY = 200L * 1024 * 1024;
    static final String HUGEPAGES_PREFIX = "hugepages-";

    private PodRequests() {}

    /**
     * @param nonZero when true, a container without a cpu (memory) request counts as 100m
     *     (200Mi); an explicit 0 stays 0
     */
    static Resource compute(PodSpec spec, boolean nonZero) {
        if (spec == null) {
            return Resource.ZERO;
        }
        Resource.Builder apps = new Resource.Builder();
        for (Container c : list(spec.getContainers())) {
            apps.add(containerRequests(c, nonZero));
        }
        Resource sidecars = Resource.ZERO;
        Resource initMax = Resource.ZERO;
        for (Container c : list(spec.getInitContainers())) {
            Resource r = containerRequests(c, nonZero);
            if ("Always".equals(c.getRestartPolicy())) {
                apps.add(r);
                sidecars = sidecars.plus(r);
                initMax = initMax.max(sidecars);
            } else {
                initMax = initMax.max(r.plus(sidecars));
            }
        }
        Resource total = podLevel(spec, apps.build().max(initMax));
        Map<String, Quantity> overhead = spec.getOverhead();
        return overhead == null || overhead.isEmpty() ? total : total.plus(Resource.parse(overhead));
    }

    /**
     * Pod-level requests ({@code spec.resources}, PodLevelResources) replace the containers'
     * aggregate for the resources they name that may be set at pod level: cpu, memory, hugepages.
     */
    private static Resource podLevel(PodSpec spec, Resource aggregate) {
        ResourceRequirements rr = spec.getResources();
        Map<String, Quantity> requests = rr == null ? null : rr.getRequests();
        if (requests == null || requests.isEmpty()) {
            return aggregate;
        }
        Resource.Builder replaced = new Resource.Builder();
        Resource.Builder removed = new Resource.Builder();
        requests.forEach((name, q) -> {
            if (name.equals(Resource.CPU) || name.equals(Resource.MEMORY) || name.startsWith(HUGEPAGES_PREFIX)) {
                replaced.add(name, q);
                removed.add(name, aggregate.get(name));
            }
        });
        return aggregate.minus(removed.build()).plus(replaced.build());
    }

    private static Resource containerRequests(Container c, boolean nonZero) {
        ResourceRequirements rr = c.getResources();
        Map<String, Quantity> requests = rr == null ? null : rr.getRequests();
        Resource r = Resource.parse(requests);
        if (!nonZero) {
            return r;
        }
        Resource.Builder b = new Resource.Builder().add(r);
        if (requests == null || !requests.containsKey(Resource.CPU)) {
            b.add(Resource.CPU, DEFAULT_MILLI_CPU);
        }
        if (requests == null || !requests.containsKey(Resource.MEMORY)) {
            b.add(Resource.MEMORY, DEFAULT_MEMORY);
        }
        return b.build();
    }

    private static <T> List<T> list(List<T> l) {
        return l == null ? List.of() : l;
    }
}
