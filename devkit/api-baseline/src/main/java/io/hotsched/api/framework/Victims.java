package io.hotsched.api.framework;

import java.util.List;

/**
 * The pods preemption would evict on one node, and how many of them violate a disruption budget
 * (upstream's {@code extenderv1.Victims}).
 *
 * @since 1.4
 */
public record Victims(List<PodInfo> pods, long numPDBViolations) {

    public Victims {
        pods = List.copyOf(pods);
    }
}
