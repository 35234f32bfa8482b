package io.hotsched.kube;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.hotsched.api.cluster.ClusterEvents;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election among scheduler replicas on a {@code coordination.k8s.io} Lease, as
 * kube-scheduler's {@code --leader-elect}: only the holder schedules; a replica that loses the
 * lease stops scheduling at once and competes again.
 */
public final class LeaderElection implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LeaderElection.class);

    private final KubernetesClient client;
    private final ClusterEvents events;
    private final Lease lease;
    private volatile CompletableFuture<?> running;
    private volatile boolean closed;

    public LeaderElection(KubernetesClient client, ClusterEvents events, Lease lease) {
        this.client = client;
        this.events = events;
        this.lease = lease;
    }

    /** Tells the scheduler it does not lead yet, then competes for the lease in the background. */
    public void start() {
        events.leading(false);
        compete();
    }

    private void compete() {
        if (closed) {
            return;
        }
        LOG.info("Competing for lease {} as {}", lease, lease.identity());
        running = client.leaderElector()
                .withConfig(new LeaderElectionConfigBuilder()
                        .withName(lease.name())
                        .withLock(new LeaseLock(lease.namespace(), lease.name(), lease.identity()))
                        .withLeaseDuration(lease.leaseDuration())
                        .withRenewDeadline(lease.renewDeadline())
                        .withRetryPeriod(lease.retryPeriod())
                        .withReleaseOnCancel(true)
                        .withLeaderCallbacks(new LeaderCallbacks(
                                () -> events.leading(true),
                                () -> {
                                    events.leading(false);
                                    if (!closed) {
                                        // kube-scheduler exits here and restarts; we stay up and compete again
                                        LOG.warn("Lost lease {}; scheduling stopped, competing again", lease);
                                        CompletableFuture.runAsync(this::compete);
                                    }
                                },
                                leader -> LOG.info("Lease {} held by {}", lease, leader)))
                        .build())
                .build()
                .start();
    }

    public String identity() {
        return lease.identity();
    }

    @Override
    public void close() {
        closed = true;
        CompletableFuture<?> f = running;
        if (f != null) {
            f.cancel(true);
        }
        events.leading(false);
    }
}
