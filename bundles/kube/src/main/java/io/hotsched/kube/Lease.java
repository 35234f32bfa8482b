package io.hotsched.kube;

import java.time.Duration;

/**
 * The lease replicas compete for and its timing, as kube-scheduler's {@code leaderElection}
 * settings name them ({@code resourceNamespace}, {@code resourceName}, {@code leaseDuration},
 * {@code renewDeadline}, {@code retryPeriod}), with this replica's identity.
 */
record Lease(
        String namespace,
        String name,
        String identity,
        Duration leaseDuration,
        Duration renewDeadline,
        Duration retryPeriod) {

    @Override
    public String toString() {
        return namespace + "/" + name;
    }
}
