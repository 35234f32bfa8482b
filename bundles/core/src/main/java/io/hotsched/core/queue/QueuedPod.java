package io.hotsched.core.queue;

import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.QueuedPodInfo;
import java.time.Instant;
import java.util.Set;

/** A pod in the scheduling queue with its bookkeeping. Mutable; guarded by the queue's lock. */
public final class QueuedPod {

    PodInfo pod;
    Instant timestamp;
    int attempts;
    Instant initialAttempt;
    Set<String> unschedulablePlugins = Set.of();
    Instant backoffExpiry;
    Instant unschedulableSince;
    String gatedBy;
    /** False while no PreEnqueue plugin could look at the pod (its profile was paused). */
    boolean gatesChecked;

    String lastFailure;
    long cycle;
    /** Popped while its profile was paused: not attempted, so no backoff when it moves back. */
    boolean notAttempted;
    /** Activated while in its attempt: a failed attempt sends it back at once, not to the unschedulable pods. */
    boolean activateAfterAttempt;

    QueuedPod(PodInfo pod, Instant now) {
        this.pod = pod;
        this.timestamp = now;
    }

    public PodInfo pod() {
        return pod;
    }

    public int attempts() {
        return attempts;
    }

    /** The scheduling cycle in which the pod was last popped. */
    public long cycle() {
        return cycle;
    }

    public Set<String> unschedulablePlugins() {
        return unschedulablePlugins;
    }

    public String lastFailure() {
        return lastFailure;
    }

    /** The view QueueSort plugins see. */
    public QueuedPodInfo info() {
        return new QueuedPodInfo(pod, timestamp, attempts, initialAttempt);
    }
}
