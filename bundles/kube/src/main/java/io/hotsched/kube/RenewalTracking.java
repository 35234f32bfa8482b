package io.hotsched.kube;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.Lock;
import java.util.function.LongSupplier;

/**
 * The lease lock, remembering when this replica last renewed it on the monotonic clock: a leader
 * holds the lease only within the renew deadline of its last successful renewal. The elector's own
 * view lags behind: a process paused past the lease (SIGSTOP, a long GC, a frozen VM) resumes
 * believing it leads until its renew loop runs again, while another replica already took over. The
 * renewal counts from the start of the attempt (its read of the lock), before the renew time the
 * others judge it by was sent, so this side always gives up first.
 */
final class RenewalTracking implements Lock {

    private static final long NONE = Long.MIN_VALUE;

    private final Lock lock;
    private final long renewDeadlineNanos;
    private final LongSupplier clock;
    private volatile long attemptAt = NONE;
    private volatile long renewedAt = NONE;

    RenewalTracking(Lock lock, long renewDeadlineNanos, LongSupplier clock) {
        this.lock = lock;
        this.renewDeadlineNanos = renewDeadlineNanos;
        this.clock = clock;
    }

    /** Whether this replica holds the lease now: renewed by it, within the renew deadline. */
    boolean holds() {
        long at = renewedAt;
        return at != NONE && clock.getAsLong() - at < renewDeadlineNanos;
    }

    @Override
    public LeaderElectionRecord get(KubernetesClient client) {
        attemptAt = clock.getAsLong();
        return lock.get(client);
    }

    @Override
    public void create(KubernetesClient client, LeaderElectionRecord record) {
        lock.create(client, record);
        written(record);
    }

    @Override
    public void update(KubernetesClient client, LeaderElectionRecord record) {
        if (!identity().equals(record.getHolderIdentity())) {
            // a release: no write of this replica may reach the server after it
            renewedAt = NONE;
        }
        lock.update(client, record);
        written(record);
    }

    private void written(LeaderElectionRecord record) {
        // a release writes no holder
        renewedAt = identity().equals(record.getHolderIdentity()) ? attemptAt : NONE;
    }

    @Override
    public String identity() {
        return lock.identity();
    }

    @Override
    public String describe() {
        return lock.describe();
    }
}
