package io.hotsched.kube;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.Lock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RenewalTrackingTest {

    private final AtomicLong now = new AtomicLong(1_000);
    private final long deadline = Duration.ofSeconds(10).toNanos();

    private static final class Recording implements Lock {
        @Override
        public LeaderElectionRecord get(KubernetesClient client) {
            return null;
        }

        @Override
        public void create(KubernetesClient client, LeaderElectionRecord r) {}

        @Override
        public void update(KubernetesClient client, LeaderElectionRecord r) {}

        @Override
        public String identity() {
            return "me";
        }

        @Override
        public String describe() {
            return "kube-system/hotsched";
        }
    }

    private static LeaderElectionRecord record(String holder) {
        ZonedDateTime t = ZonedDateTime.now();
        return new LeaderElectionRecord(holder, Duration.ofSeconds(15), t, t, 0);
    }

    @Test
    void aRenewalHoldsUntilTheRenewDeadlineCountedFromTheAttempt() {
        RenewalTracking t = new RenewalTracking(new Recording(), deadline, now::get);
        assertFalse(t.holds());
        t.get(null);
        // the write returns 3 s after the attempt began: the deadline still counts from the attempt
        now.addAndGet(Duration.ofSeconds(3).toNanos());
        t.update(null, record("me"));
        assertTrue(t.holds());
        now.addAndGet(Duration.ofSeconds(6).toNanos());
        assertTrue(t.holds());
        // a pause past the deadline: it no longer holds, whatever the elector believes
        now.addAndGet(Duration.ofSeconds(2).toNanos());
        assertFalse(t.holds());
    }

    @Test
    void aReleaseOrAnotherHolderEndsIt() {
        RenewalTracking t = new RenewalTracking(new Recording(), deadline, now::get);
        t.get(null);
        t.create(null, record("me"));
        assertTrue(t.holds());
        t.get(null);
        t.update(null, record(null));
        assertFalse(t.holds());
        t.get(null);
        t.update(null, record("me"));
        assertTrue(t.holds());
        t.get(null);
        t.update(null, record("other"));
        assertFalse(t.holds());
    }
}
