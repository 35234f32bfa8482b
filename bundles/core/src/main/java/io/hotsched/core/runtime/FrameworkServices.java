package io.hotsched.core.runtime;

import io.hotsched.api.framework.ClusterClient;
import io.hotsched.api.framework.NodeInfoLister;
import io.hotsched.api.framework.Parallelizer;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.core.cache.ObjectStore;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
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
        io.hotsched.core.metrics.SchedulerMetrics metrics) {

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
                new io.hotsched.core.metrics.SchedulerMetrics());
    }
}
