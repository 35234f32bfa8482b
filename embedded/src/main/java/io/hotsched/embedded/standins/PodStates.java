package io.hotsched.embedded.standins;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;

/** What controllers read from a pod's status, as upstream's pod helpers read it. */
final class PodStates {

    private PodStates() {}

    static String phase(Pod p) {
        return p.getStatus() == null || p.getStatus().getPhase() == null
                ? "Pending"
                : p.getStatus().getPhase();
    }

    /** Not terminating and not finished: counts towards a controller's replicas. */
    static boolean active(Pod p) {
        String phase = phase(p);
        return p.getMetadata().getDeletionTimestamp() == null && !"Succeeded".equals(phase) && !"Failed".equals(phase);
    }

    /** Running with its Ready condition True. */
    static boolean ready(Pod p) {
        if (!"Running".equals(phase(p)) || p.getStatus().getConditions() == null) {
            return false;
        }
        for (PodCondition c : p.getStatus().getConditions()) {
            if ("Ready".equals(c.getType())) {
                return "True".equals(c.getStatus());
            }
        }
        return false;
    }

    static boolean assigned(Pod p) {
        return p.getSpec() != null
                && p.getSpec().getNodeName() != null
                && !p.getSpec().getNodeName().isEmpty();
    }
}
