package io.hotsched.kube;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.hotsched.api.cluster.ClusterEvents;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election among scheduler replicas on a {@code coordination.k8s.io} Lease, as
 * kube-scheduler's {@code --leader-elect}: only the holder schedules; a replica that loses the
 * lease stops scheduling at once and competes again. Leading means the elector says so <em>and</em>
 * the last renewal is within the renew deadline ({@link RenewalTracking}); a watchdog checks that
 * every 50 ms, and {@link #holdsLease()} is asked before every write. A replica competes only while
 * its gate allows it (plugin delivery: once it has installed the fleet's bundles).
 */
public final class LeaderElection implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LeaderElection.class);
    private static final long WATCH_MILLIS = 50;

    private final KubernetesClient client;
    private final ClusterEvents events;
    private final Lease lease;
    private final BooleanSupplier mayLead;
    private final ScheduledExecutorService watchdog = Daemons.singleThread("hotsched-lease-watchdog");
    private volatile CompletableFuture<?> running;
    private volatile RenewalTracking tracking;
    private volatile boolean electorLeading;
    private boolean told;
    private volatile boolean held;
    private volatile boolean closed;

    public LeaderElection(KubernetesClient client, ClusterEvents events, Lease lease) {
        this(client, events, lease, () -> true);
    }

    /**
     * @param mayLead whether this replica may compete now; while it says no (the replica has not
     *     installed the bundles its SchedulerPlugin objects name), it asks again every retry
     *     period, so that a failover never lands on a replica whose profiles would wait for a plugin
     */
    public LeaderElection(KubernetesClient client, ClusterEvents events, Lease lease, BooleanSupplier mayLead) {
        this.client = client;
        this.events = events;
        this.lease = lease;
        this.mayLead = mayLead;
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
        if (!mayLead.getAsBoolean()) {
            if (!held) {
                held = true;
                LOG.info(
                        "Not competing for lease {} until this replica has installed its SchedulerPlugin bundles",
                        lease);
            }
            CompletableFuture.delayedExecutor(lease.retryPeriod().toMillis(), TimeUnit.MILLISECONDS)
                    .execute(this::compete);
            return;
        }
        held = false;
        LOG.info("Competing for lease {} as {}", lease, lease.identity());
        RenewalTracking lock = new RenewalTracking(
                new LeaseLock(lease.namespace(), lease.name(), lease.identity()),
                lease.renewDeadline().toNanos(),
                System::nanoTime);
        tracking = lock;
        // set when this round's lease is given back because the gate closed while competing
        AtomicBoolean handedBack = new AtomicBoolean();
        AtomicReference<CompletableFuture<?>> round = new AtomicReference<>();
        CompletableFuture<?> started = client.leaderElector()
                .withConfig(new LeaderElectionConfigBuilder()
                        .withName(lease.name())
                        .withLock(lock)
                        .withLeaseDuration(lease.leaseDuration())
                        .withRenewDeadline(lease.renewDeadline())
                        .withRetryPeriod(lease.retryPeriod())
                        .withReleaseOnCancel(true)
                        .withLeaderCallbacks(new LeaderCallbacks(
                                () -> {
                                    if (mayLead.getAsBoolean()) {
                                        electorLeading = true;
                                        refresh();
                                        return;
                                    }
                                    // a SchedulerPlugin arrived while this replica competed: give the lease back
                                    handedBack.set(true);
                                    LOG.info(
                                            "Took lease {} before installing its SchedulerPlugin bundles; releasing it",
                                            lease);
                                    CompletableFuture<?> f = round.get();
                                    if (f != null) {
                                        f.cancel(true);
                                    }
                                    CompletableFuture.delayedExecutor(
                                                    lease.retryPeriod().toMillis(), TimeUnit.MILLISECONDS)
                                            .execute(this::compete);
                                },
                                () -> {
                                    electorLeading = false;
                                    refresh();
                                    if (!closed && !handedBack.get()) {
                                        // kube-scheduler exits here and restarts; we stay up and compete again
                                        LOG.warn("Lost lease {}; scheduling stopped, competing again", lease);
                                        CompletableFuture.runAsync(this::compete);
                                    }
                                },
                                leader -> LOG.info("Lease {} held by {}", lease, leader)))
                        .build())
                .build()
                .start();
        round.set(started);
        running = started;
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
