package io.hotsched.kube;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.hotsched.api.cluster.ClusterEvents;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election among scheduler replicas on a {@code coordination.k8s.io} Lease, as
 * kube-scheduler's {@code --leader-elect}: only the holder schedules; a replica that loses the
 * lease stops scheduling at once and competes again. Leading means the elector says so <em>and</em>
 * the last renewal is within the renew deadline ({@link RenewalTracking}); a watchdog checks that
 * every 50 ms, and {@link #holdsLease()} is asked before every write.
 */
public final class LeaderElection implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LeaderElection.class);
    private static final long WATCH_MILLIS = 50;

    private final KubernetesClient client;
    private final ClusterEvents events;
    private final Lease lease;
    private final ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "hotsched-lease-watchdog");
        t.setDaemon(true);
        return t;
    });
    private volatile CompletableFuture<?> running;
    private volatile RenewalTracking tracking;
    private volatile boolean electorLeading;
    private boolean told;
    private volatile boolean closed;

    public LeaderElection(KubernetesClient client, ClusterEvents events, Lease lease) {
        this.client = client;
        this.events = events;
        this.lease = lease;
    }

    /** Tells the scheduler it does not lead yet, then competes for the lease in the background. */
    public void start() {
        events.leading(false);
        watchdog.scheduleWithFixedDelay(this::refresh, WATCH_MILLIS, WATCH_MILLIS, TimeUnit.MILLISECONDS);
        compete();
    }

    /** Whether this replica may write now: it leads and renewed the lease within the renew deadline. */
    public boolean holdsLease() {
        RenewalTracking t = tracking;
        return electorLeading && t != null && t.holds();
    }

    private synchronized void refresh() {
        boolean now = holdsLease() && !closed;
        if (now != told) {
            if (!now && electorLeading) {
                LOG.warn(
                        "Lease {} not renewed within {} s: scheduling stopped until it is",
                        lease,
                        lease.renewDeadline().toSeconds());
            }
            told = now;
            events.leading(now);
        }
    }

    private void compete() {
        if (closed) {
            return;
        }
        LOG.info("Competing for lease {} as {}", lease, lease.identity());
        RenewalTracking lock = new RenewalTracking(
                new LeaseLock(lease.namespace(), lease.name(), lease.identity()),
                lease.renewDeadline().toNanos(),
                System::nanoTime);
        tracking = lock;
        running = client.leaderElector()
                .withConfig(new LeaderElectionConfigBuilder()
                        .withName(lease.name())
                        .withLock(lock)
                        .withLeaseDuration(lease.leaseDuration())
                        .withRenewDeadline(lease.renewDeadline())
                        .withRetryPeriod(lease.retryPeriod())
                        .withReleaseOnCancel(true)
                        .withLeaderCallbacks(new LeaderCallbacks(
                                () -> {
                                    electorLeading = true;
                                    refresh();
                                },
                                () -> {
                                    electorLeading = false;
                                    refresh();
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
        watchdog.shutdownNow();
        electorLeading = false;
        synchronized (this) {
            told = false;
        }
        events.leading(false);
    }
}
