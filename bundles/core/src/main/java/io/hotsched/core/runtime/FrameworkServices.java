package io.hotsched.core.runtime;

import io.hotsched.api.framework.ClusterClient;
import io.hotsched.api.framework.NodeInfoLister;
import io.hotsched.api.framework.Parallelizer;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Reservations;
import io.hotsched.core.cache.ClusterCache;
import io.hotsched.core.cache.ObjectStore;
import io.hotsched.core.metrics.SchedulerMetrics;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What the scheduler shares with every framework it builds.
 *
 * @param snapshot the snapshot of the attempt in progress (or the latest)
 * @param nominatedPods pods nominated to a node, by node name
 * @param timer runs Permit time-outs
 * @param timeouts how long one plugin call may take per extension point
 * @param clock the clock the time-outs are measured with; null: {@code System.currentTimeMillis()}
 * @param objects the other kinds the cluster connection follows (namespaces, services ...)
 * @param watch where plugin calls in progress are marked for the watchdog; null: not watched
 * @param metrics where extension points' and plugins' durations are counted
 * @param faultsOutsideAttempts where a fault of a call outside a scheduling attempt (PreEnqueue,
 *     QueueSort) counts against its plugin at once; an attempt's faults count when it ends
 * @param hooks the feature gates, the queue's activate and the background threads plugins get
 */
public record FrameworkServices(
        Parallelizer parallelizer,
        ClusterClient cluster,
        Supplier<NodeInfoLister> snapshot,
        Function<String, List<PodInfo>> nominatedPods,
        ScheduledExecutorService timer,
        PluginTimeouts timeouts,
        CoarseClock clock,
        ObjectStore objects,
        CallWatch watch,
        SchedulerMetrics metrics,
        BiConsumer<PluginInstance, String> faultsOutsideAttempts,
        Reservations reservations,
        SchedulerHooks hooks) {

    /** Services without time-outs (tests of other things). */
    public FrameworkServices(
            Parallelizer parallelizer,
            ClusterClient cluster,
            Supplier<NodeInfoLister> snapshot,
            Function<String, List<PodInfo>> nominatedPods,
            ScheduledExecutorService timer) {
        this(
                parallelizer,
                cluster,
                snapshot,
                nominatedPods,
                timer,
                new PluginTimeouts(),
                null,
                new ObjectStore(),
                null,
                new SchedulerMetrics(),
                (plugin, fault) -> {},
                new ClusterCache(Duration.ofMinutes(15), Clock.systemUTC()).reservations(),
                SchedulerHooks.none());
    }

    /** These services with {@code objects} as the other kinds the cluster connection follows. */
    public FrameworkServices withObjects(ObjectStore objects) {
        return with(objects, hooks);
    }

    /** These services with {@code hooks} as the feature gates, activate and background threads plugins get. */
    public FrameworkServices withHooks(SchedulerHooks hooks) {
        return with(objects, hooks);
    }

    private FrameworkServices with(ObjectStore objects, SchedulerHooks hooks) {
        return new FrameworkServices(
                parallelizer,
                cluster,
                snapshot,
                nominatedPods,
                timer,
                timeouts,
                clock,
                objects,
                watch,
                metrics,
                faultsOutsideAttempts,
                reservations,
                hooks);
    }
}
