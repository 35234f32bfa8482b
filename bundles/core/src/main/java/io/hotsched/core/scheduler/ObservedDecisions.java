package io.hotsched.core.scheduler;

import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.core.cache.ClusterCache;
import io.hotsched.core.runtime.ObservingFramework;
import io.hotsched.core.runtime.Snapshot;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * Decides an observed pod with the observe-only profile's current framework, on a snapshot of its
 * own brought up to date from the cache for each pod (touched by the shadow thread only). A pod the
 * other scheduler has bound already is counted on its node in the cache: it is taken off that
 * node's copy while it is decided, so it does not compete with itself.
 */
final class ObservedDecisions implements Observer.Decider {

    private final ClusterCache cache;
    private final String observed;
    private final AtomicReference<ObservingFramework> framework;
    private final LongSupplier cpu;
    private final Snapshot snapshot = new Snapshot();

    /**
     * @param observed the scheduler name observed, as the results name it
     * @param cpu the calling thread's CPU time, in nanos
     */
    ObservedDecisions(
            ClusterCache cache, String observed, AtomicReference<ObservingFramework> framework, LongSupplier cpu) {
        this.cache = cache;
        this.observed = observed;
        this.framework = framework;
        this.cpu = cpu;
    }

    @Override
    public Observer.Decision decide(PodInfo pod) {
        ObservingFramework fw = framework.get();
        if (fw == null || !fw.pin()) {
            return null;
        }
        try {
            if (!fw.admits(pod)) {
                return null;
            }
            long c0 = cpu.getAsLong();
            long t0 = System.nanoTime();
            cache.updateSnapshot(snapshot);
            String on = cache.nodeOfPod(pod.uid());
            NodeInfo kept = on == null ? null : snapshot.get(on);
            NodeInfo lifted = kept == null ? null : kept.copy();
            if (lifted != null && lifted.removePod(pod.uid())) {
                snapshot.replace(lifted, kept.generation());
            } else {
                kept = null;
            }
            ObservingFramework.Decision d;
            try {
                d = fw.decide(pod, snapshot, ThreadLocalRandom.current().nextLong());
            } finally {
                if (kept != null) {
                    snapshot.replace(kept, kept.generation());
                }
            }
            return new Observer.Decision(
                    bound -> d.against(observed, bound), System.nanoTime() - t0, cpu.getAsLong() - c0);
        } finally {
            fw.unpin();
        }
    }
}
