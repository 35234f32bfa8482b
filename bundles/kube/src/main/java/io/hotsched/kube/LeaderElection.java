package io.hotsched.kube;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.hotsched.api.cluster.ClusterEvents;
import java.time.Duration;
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
    private final String namespace;
    private final String name;
    private final String identity;
    private final Duration leaseDuration;
    private final Duration renewDeadline;
    private final Duration retryPeriod;
    private volatile CompletableFuture<?> running;
    private volatile boolean closed;

    public LeaderElection(
            KubernetesClient client,
            ClusterEvents events,
            String namespace,
            String name,
            String identity,
            Duration leaseDuration,
            Duration renewDeadline,
            Duration retryPeriod) {
        this.client = client;
        this.events = events;
        this.namespace = namespace;
        this.name = name;
        this.identity = identity;
        this.leaseDuration = leaseDuration;
        this.renewDeadline = renewDeadline;
        this.retryPeriod = retryPeriod;
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
        LOG.info("Competing for lease {}/{} as {}", namespace, name, identity);
        running = client.leaderElector()
                .withConfig(new LeaderElectionConfigBuilder()
                        .withName(name)
                        .withLock(new LeaseLock(namespace, name, identity))
                        .withLeaseDuration(leaseDuration)
                        .withRenewDeadline(renewDeadline)
                        .withRetryPeriod(retryPeriod)
                        .withReleaseOnCancel(true)
                        .withLeaderCallbacks(new LeaderCallbacks(
                                () -> events.leading(true),
                                () -> {
                                    events.leading(false);
                                    if (!closed) {
                                        // kube-scheduler exits here and restarts; we stay up and compete again
                                        LOG.warn(
                                                "Lost lease {}/{}; scheduling stopped, competing again",
                                                namespace,
                                                name);
                                        CompletableFuture.runAsync(this::compete);
                                    }
                                },
                                leader -> LOG.info("Lease {}/{} held by {}", namespace, name, leader)))
                        .build())
                .build()
                .start();
    }

    public String identity() {
        return identity;
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
