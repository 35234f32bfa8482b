package io.hotsched.plugins.defaults.defaultpreemption;

import io.hotsched.api.framework.PodInfo;
import java.util.List;

/**
 * A node where preemption would make the pod fit, with the pods to evict there (most important
 * first) and how many of them break a PodDisruptionBudget.
 */
public record Candidate(String nodeName, List<PodInfo> victims, int numPDBViolations) {

    public Candidate {
        victims = List.copyOf(victims);
    }
}
