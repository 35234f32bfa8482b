package io.hotsched.core.scheduler;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.hotsched.api.cluster.ClusterBackend;
import io.hotsched.api.cluster.ClusterEvents;
import io.hotsched.api.framework.ActionType;
import io.hotsched.api.framework.ClusterEvent;
import io.hotsched.api.framework.ClusterEventWithHint;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.QueueingHint;
import io.hotsched.api.framework.Status;
import io.hotsched.core.cache.ClusterCache;
import io.hotsched.core.cache.ObjectStore;
import io.hotsched.core.config.ConfigException;
import io.hotsched.core.config.SchedulerConfig;
import io.hotsched.core.metrics.SchedulerMetrics;
import io.hotsched.core.queue.QueuedPod;
import io.hotsched.core.queue.SchedulingQueue;
import io.hotsched.core.registry.PluginHealth;
import io.hotsched.core.registry.PluginRegistry;
import io.hotsched.core.registry.Registration;
import io.hotsched.core.runtime.Attempt;
import io.hotsched.core.runtime.CallWatch;
import io.hotsched.core.runtime.CoarseClock;
import io.hotsched.core.runtime.FrameworkImpl;
import io.hotsched.core.runtime.FrameworkServices;
import io.hotsched.core.runtime.PluginTimeouts;
import io.hotsched.core.runtime.SchedulingAlgorithm;
import io.hotsched.core.runtime.Snapshot;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler: cluster events in, one scheduling loop, bindings out. Owns the cache, the queue,
 * the profiles and the threads (one scheduling thread, the Filter/Score workers, the binding
 * pool, a status writer and a housekeeping timer); plugins own none.
 */
public final class Scheduler implements ClusterEvents, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Scheduler.class);

    private final SchedulerOptions options;
    private final Clock clock;
    private final PluginRegistry registry;
    private final PluginHealth health;
    private final ClusterCache cache;
    private final SchedulingQueue queue;
    private final ProfileManager profiles;
    private final SwitchableParallelizer parallelizer;
    private final Random random = new Random();
    private final CallWatch callWatch = new CallWatch();
    private final ExecutorService binders;
    private final ExecutorService statusWriter;
    private final ScheduledExecutorService housekeeping;
    private final Explanations explanations;
    private final SchedulingCycle cycle;
    private final PluginTimeouts timeouts = new PluginTimeouts();
    private final CoarseClock coarseClock = new CoarseClock();
    private final Map<String, PodInfo> pendingForOthers = new ConcurrentHashMap<>();
    private final CountDownLatch synced = new CountDownLatch(1);
    private final ObjectStore objects = new ObjectStore();
    private final SchedulerMetrics metrics = new SchedulerMetrics();
    private volatile ClusterBackend backend;
    private volatile SchedulingCycle.Loop loop;
    private volatile int loopsStarted;
    private volatile boolean running;
    private final Object leadership = new Object();
    private volatile boolean leading = true;

    public Scheduler(SchedulerOptions options, PluginRegistry registry, PluginHealth health, Clock clock) {
        this.options = options;
        this.clock = clock;
        this.registry = registry;
        this.health = health;
        this.cache = new ClusterCache(options.assumedPodTtl(), clock);
        this.parallelizer = new SwitchableParallelizer(Runtime.getRuntime().availableProcessors());
        this.binders = Executors.newFixedThreadPool(options.bindingThreads(), daemon("hotsched-binder"));
        this.statusWriter = Executors.newSingleThreadExecutor(daemon("hotsched-status"));
        this.housekeeping = Executors.newSingleThreadScheduledExecutor(daemon("hotsched-housekeeping"));
        this.explanations = new Explanations(options.explanations());
        this.queue = new SchedulingQueue(clock, Duration.ofSeconds(1), Duration.ofSeconds(10), this::preEnqueue);
        this.loop = new SchedulingCycle.Loop(null, new Snapshot(), new SchedulingAlgorithm(parallelizer, random));
        FrameworkServices services = new FrameworkServices(
                parallelizer,
                new BackendClient(() -> backend),
                () -> loop.snapshot(),
                node -> queue.nominator().forNode(node),
                housekeeping,
                timeouts,
                coarseClock,
                objects,
                callWatch,
                metrics);
        this.profiles = new ProfileManager(registry, services);
        this.profiles.addListener(this::profileChanged);
        this.cycle = new SchedulingCycle(
                profiles,
                cache,
                queue,
                binders,
                statusWriter,
                () -> backend,
                registry,
                health,
                explanations,
                clock,
                () -> leading,
                metrics);
        metrics.pendingPodsFrom(() -> {
            Map<String, Integer> c = new LinkedHashMap<>(queue.counts());
            // upstream's queue labels: what is in flight is not pending
            c.remove("inFlight");
            return c;
        });
    }

    /** The scheduler's metrics, as {@code /metrics} serves them. */
    public SchedulerMetrics metrics() {
        return metrics;
    }

    private static ThreadFactory daemon(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    // ---- lifecycle --------------------------------------------------------------------------------

    /** Applies the first configuration and starts the loop; scheduling begins once the cluster is synced. */
    public synchronized void start(SchedulerConfig config) throws ConfigException {
        reload(config);
        running = true;
        housekeeping.scheduleWithFixedDelay(this::housekeep, 1, 1, TimeUnit.SECONDS);
        housekeeping.scheduleWithFixedDelay(queue::flushUnschedulableLeftover, 30, 30, TimeUnit.SECONDS);
        housekeeping.scheduleWithFixedDelay(
                this::watchCalls, WATCH_PERIOD_MILLIS, WATCH_PERIOD_MILLIS, TimeUnit.MILLISECONDS);
        startLoop();
    }

    /** How often the watchdog looks for plugin calls past their time-out. */
    static final long WATCH_PERIOD_MILLIS = 20;

    /**
     * Starts a scheduling loop thread, which from then on is the only one taking pods from the
     * queue. A loop that was given up on keeps its own snapshot and rotation (its stuck thread may
     * still read them); the new one starts with a fresh snapshot, filled on its first attempt.
     */
    private synchronized void startLoop() {
        int n = ++loopsStarted;
        SchedulingCycle.Loop previous = loop;
        SchedulingCycle.Loop[] next = new SchedulingCycle.Loop[1];
        Thread t = new Thread(() -> runLoop(next[0]), n == 1 ? "hotsched-scheduler" : "hotsched-scheduler-" + n);
        t.setDaemon(true);
        next[0] = new SchedulingCycle.Loop(
                t,
                n == 1 ? previous.snapshot() : new Snapshot(),
                new SchedulingAlgorithm(
                        parallelizer, random, previous.algorithm().nextStartNodeIndex()));
        loop = next[0];
        t.start();
    }

    /**
     * The watchdog: a plugin call of the loop's attempt still running past its time-out makes the
     * loop give the attempt up and go on on a new thread; a worker stuck in such a call is
     * replaced until the call returns.
     */
    private void watchCalls() {
        try {
            long now = coarseClock.now();
            for (CallWatch.Overdue o : callWatch.overdue(now)) {
                if (o.extender() != null) {
                    // extenders answer slowly: the loop goes on, the attempt finishes when they answer
                    if (cycle.detach(o) != null && running) {
                        startLoop();
                    }
                    continue;
                }
                Thread abandoned = cycle.giveUp(o, now);
                Attempt a = Attempt.of(o.state());
                if (a != null && a.givenUp()) {
                    // before the new loop starts: its first attempt must not enter the stuck plugin
                    o.slot().onceFor(o, () -> whileStuck(o));
                }
                if (abandoned != null && running) {
                    startLoop();
                    LOG.info(
                            "Scheduling loop moved to thread {}; {} is left to finish the stuck call",
                            loop.thread().getName(),
                            abandoned.getName());
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("Watching plugin calls failed: {}", e.toString());
        }
    }

    /** Applies a new configuration atomically, or changes nothing and throws. */
    public synchronized void reload(SchedulerConfig config) throws ConfigException {
        profiles.apply(config);
        queue.setBackoff(
                Duration.ofSeconds(config.podInitialBackoffSeconds()),
                Duration.ofSeconds(config.podMaxBackoffSeconds()));
        parallelizer.resize(config.parallelism(), housekeeping);
        for (PodInfo p : List.copyOf(pendingForOthers.values())) {
            if (profiles.serves(p.schedulerName())) {
                pendingForOthers.remove(p.uid());
                queue.add(p);
            }
        }
    }

    public void setBackend(ClusterBackend b) {
        this.backend = b;
    }

    public ClusterBackend backend() {
        return backend;
    }

    @Override
    public void close() {
        running = false;
        queue.close();
        Thread l = loop.thread();
        if (l != null) {
            try {
                l.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        binders.shutdown();
        try {
            binders.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        binders.shutdownNow();
        statusWriter.shutdownNow();
        housekeeping.shutdownNow();
        profiles.close();
        parallelizer.close();
        coarseClock.close();
    }

    private void runLoop(SchedulingCycle.Loop me) {
        try {
            synced.await();
        } catch (InterruptedException e) {
            return;
        }
        if (loopsStarted == 1) {
            LOG.info("Scheduling started: {} node(s), {} pod(s) in the cache", cache.nodeCount(), cache.podCount());
        }
        // a loop given up on ends here when its stuck call returns: another thread is the loop now
        while (running && loop == me) {
            QueuedPod qp;
            try {
                awaitLeading();
                qp = queue.pop();
            } catch (InterruptedException e) {
                return;
            }
            if (qp == null) {
                return;
            }
            if (!leading) {
                queue.addBackoff(qp, "this scheduler is not the leader");
                continue;
            }
            cycle.scheduleOne(qp, me);
        }
    }

    private void housekeep() {
        try {
            queue.flushBackoffCompleted();
            for (PodInfo p : cache.cleanupExpired()) {
                LOG.warn(
                        "Assumed pod {} expired: its binding never showed up; it is no longer counted on its node",
                        p.key());
                queue.onEvent(
                        ClusterEvent.POD,
                        ActionType.DELETE,
                        qp -> mayHelp(qp, ClusterEvent.POD, ActionType.DELETE, p.pod(), null));
            }
        } catch (RuntimeException e) {
            LOG.warn("Housekeeping failed: {}", e.toString());
        }
    }

    /**
     * A call the loop gave up on is still running: its plugin serves no new attempt, and a worker
     * stuck in it is replaced, until it returns. Returns what to do then.
     */
    private Runnable whileStuck(CallWatch.Overdue o) {
        Runnable giveBack = parallelizer.lendFor(o.slot().thread());
        Registration r = o.instance().registration();
        if (r != null) {
            health.callStuck(r);
            registry.changed(r.name());
        }
        return () -> {
            if (giveBack != null) {
                giveBack.run();
            }
            // on the thread that was stuck, still inside the framework: rebuild elsewhere
            if (r != null && health.callReturned(r)) {
                housekeeping.execute(() -> {
                    LOG.info("Plugin {}: its calls given up on have returned; it serves again", o.instance());
                    registry.changed(r.name());
                });
            }
        };
    }

    // ---- profiles and plugins --------------------------------------------------------------------

    private void profileChanged(ProfileState s) {
        if (!s.ready()) {
            // pods that found the profile paused say why it is paused now, not why it was then
            queue.setFailure(
                    qp -> qp.unschedulablePlugins().contains(SchedulingCycle.PAUSED_PREFIX + s.name()),
                    "profile " + s.name() + " " + s.describe());
        }
        if (s.ready()) {
            FrameworkImpl f = s.framework();
            queue.setLess(f::less);
            // a new framework (config reload, a plugin version arriving or leaving) may decide
            // differently: what the old one refused is no longer known to be unschedulable
            queue.moveIf(qp -> s.name().equals(qp.pod().schedulerName()));
        }
    }

    /** A plugin factory arrived: profiles using its name are rebuilt. */
    public void pluginAdded(Registration r) {
        registry.add(r);
    }

    /**
     * A plugin factory leaves (its bundle stops): profiles are rebuilt without it (or paused), pods
     * waiting in Permit on it are rejected, and this returns once no attempt uses it, or after the
     * configured wait.
     */
    /** The scheduler is being stopped: profiles losing plugins now is expected, not a warning. */
    public void shuttingDown() {
        profiles.shuttingDown();
    }

    public void pluginRemoved(Registration r) {
        registry.remove(r);
        profiles.awaitDrained(r, options.pluginRemovalWait());
    }

    /** Ends the quarantine of every registration of plugin {@code name}; false when none was quarantined. */
    public boolean release(String name) {
        boolean any = false;
        for (Registration r : registry.all(name)) {
            any |= health.release(r);
        }
        if (any) {
            registry.changed(name);
        }
        return any;
    }

    // ---- cluster events ------------------------------------------------------------------------------

    private Status preEnqueue(PodInfo pod) {
        ProfileState s = profiles.profile(pod.schedulerName());
        if (s == null) {
            return Status.SUCCESS;
        }
        if (!s.ready()) {
            return null;
        }
        return s.framework().runPreEnqueuePlugins(pod);
    }

    @Override
    public void nodeAdded(Node node) {
        cache.addOrUpdateNode(node);
        queue.onEvent(
                ClusterEvent.NODE, ActionType.ADD, qp -> mayHelp(qp, ClusterEvent.NODE, ActionType.ADD, null, node));
    }

    @Override
    public void nodeUpdated(Node oldNode, Node newNode) {
        cache.addOrUpdateNode(newNode);
        for (ActionType a : EventKinds.nodeUpdate(oldNode, newNode)) {
            queue.onEvent(ClusterEvent.NODE, a, qp -> mayHelp(qp, ClusterEvent.NODE, a, oldNode, newNode));
        }
    }

    @Override
    public void nodeDeleted(Node node) {
        cache.removeNode(node.getMetadata().getName());
        queue.onEvent(
                ClusterEvent.NODE,
                ActionType.DELETE,
                qp -> mayHelp(qp, ClusterEvent.NODE, ActionType.DELETE, node, null));
    }

    @Override
    public void podAdded(Pod pod) {
        PodInfo p = PodInfo.of(pod);
        if (p.nodeName() != null) {
            cache.addOrUpdatePod(p);
            queue.onEvent(
                    ClusterEvent.POD, ActionType.ADD, qp -> mayHelp(qp, ClusterEvent.POD, ActionType.ADD, null, pod));
        } else if (!terminating(pod)) {
            if (profiles.serves(p.schedulerName())) {
                queue.add(p);
            } else {
                pendingForOthers.put(p.uid(), p);
            }
        }
    }

    @Override
    public void podUpdated(Pod oldPod, Pod newPod) {
        PodInfo p = PodInfo.of(newPod);
        if (p.nodeName() != null) {
            // bound (by us or by anyone): no longer pending
            queue.delete(p);
            pendingForOthers.remove(p.uid());
            cache.addOrUpdatePod(p);
            for (ActionType a : oldPod == null ? List.of(ActionType.ADD) : EventKinds.podUpdate(oldPod, newPod)) {
                queue.onEvent(ClusterEvent.POD, a, qp -> mayHelp(qp, ClusterEvent.POD, a, oldPod, newPod));
            }
        } else if (terminating(newPod)) {
            queue.delete(p);
            pendingForOthers.remove(p.uid());
        } else if (profiles.serves(p.schedulerName())) {
            pendingForOthers.remove(p.uid());
            if (nominationCleared(oldPod, newPod)) {
                // someone (preemption of a higher-priority pod) took the node back; an update that
                // merely lacks the nomination we just made in memory does not count
                queue.nominator().delete(p.uid());
            }
            if (oldPod == null || specOrLabelsChanged(oldPod, newPod)) {
                queue.update(p);
            }
        } else {
            queue.delete(p);
            pendingForOthers.put(p.uid(), p);
        }
    }

    private static boolean nominationCleared(Pod oldPod, Pod newPod) {
        return oldPod != null
                && !nominatedNode(oldPod).isEmpty()
                && nominatedNode(newPod).isEmpty();
    }

    private static String nominatedNode(Pod pod) {
        String n = pod.getStatus() == null ? null : pod.getStatus().getNominatedNodeName();
        return n == null ? "" : n;
    }

    @Override
    public void podDeleted(Pod pod) {
        PodInfo p = PodInfo.of(pod);
        pendingForOthers.remove(p.uid());
        queue.delete(p);
        boolean wasCounted = cache.contains(p.uid()) && !cache.isAssumed(p.uid());
        if (wasCounted) {
            cache.removePod(p);
            queue.onEvent(
                    ClusterEvent.POD,
                    ActionType.DELETE,
                    qp -> mayHelp(qp, ClusterEvent.POD, ActionType.DELETE, pod, null));
        }
    }

    @Override
    public void objectChanged(String kind, HasMetadata oldObject, HasMetadata newObject) {
        objects.changed(kind, oldObject, newObject);
        ActionType a = oldObject == null ? ActionType.ADD : newObject == null ? ActionType.DELETE : ActionType.UPDATE;
        queue.onEvent(kind, a, qp -> mayHelp(qp, kind, a, oldObject, newObject));
    }

    /**
     * Why the scheduler cannot schedule every pod it serves yet (not synced, a profile waiting for
     * its plugins or refused); null when it can: what {@code /readyz} answers.
     */
    public String notReady() {
        if (!running) {
            return "not running";
        }
        if (synced.getCount() > 0) {
            return "the cluster is not synced yet";
        }
        List<String> waiting = new ArrayList<>();
        for (ProfileState p : profiles.profiles()) {
            if (!p.ready()) {
                waiting.add("profile " + p.name() + " " + p.describe());
            }
        }
        return waiting.isEmpty() ? null : String.join("; ", waiting);
    }

    @Override
    public void synced() {
        synced.countDown();
    }

    @Override
    public void leading(boolean nowLeading) {
        synchronized (leadership) {
            if (leading != nowLeading) {
                LOG.info(nowLeading ? "Leading: scheduling" : "Not leading: scheduling stopped");
            }
            leading = nowLeading;
            leadership.notifyAll();
        }
    }

    /** Whether this scheduler may schedule and bind now. */
    public boolean isLeading() {
        return leading;
    }

    private void awaitLeading() throws InterruptedException {
        synchronized (leadership) {
            while (!leading && running) {
                leadership.wait(1000);
            }
        }
    }

    private boolean mayHelp(QueuedPod qp, String kind, ActionType action, Object oldObject, Object newObject) {
        Set<String> plugins = qp.unschedulablePlugins();
        if (plugins.isEmpty()) {
            return true;
        }
        ProfileState s = profiles.profile(qp.pod().schedulerName());
        if (s == null || !s.ready()) {
            return false;
        }
        Map<String, List<ClusterEventWithHint>> events = s.framework().enqueueEvents();
        for (String plugin : plugins) {
            if (!events.containsKey(plugin)) {
                return true;
            }
            List<ClusterEventWithHint> list = events.get(plugin);
            if (list == null) {
                return true;
            }
            for (ClusterEventWithHint e : list) {
                if (!e.event().matches(kind, action)) {
                    continue;
                }
                if (e.hint() == null) {
                    return true;
                }
                try {
                    if (e.hint().hint(qp.pod(), oldObject, newObject) == QueueingHint.QUEUE) {
                        return true;
                    }
                } catch (RuntimeException ex) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean terminating(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return pod.getMetadata().getDeletionTimestamp() != null || "Succeeded".equals(phase) || "Failed".equals(phase);
    }

    private static boolean specOrLabelsChanged(Pod oldPod, Pod newPod) {
        return !java.util.Objects.equals(oldPod.getSpec(), newPod.getSpec())
                || !java.util.Objects.equals(
                        oldPod.getMetadata().getLabels(), newPod.getMetadata().getLabels())
                || !java.util.Objects.equals(
                        oldPod.getMetadata().getAnnotations(),
                        newPod.getMetadata().getAnnotations());
    }

    // ---- views for the shell and tests -------------------------------------------------------------

    public ProfileManager profiles() {
        return profiles;
    }

    public SchedulingQueue queue() {
        return queue;
    }

    public ClusterCache cache() {
        return cache;
    }

    public PluginRegistry registry() {
        return registry;
    }

    /** The per-extension-point time-outs of plugin calls; changes apply to the next call. */
    public PluginTimeouts timeouts() {
        return timeouts;
    }

    public PluginHealth health() {
        return health;
    }

    public Explanation explain(String podKey) {
        return explanations.get(podKey);
    }

    /** Pods bound, found unschedulable, failed with an error since start. */
    public Map<String, Long> counters() {
        return Map.of(
                "scheduled",
                metrics.attempts(SchedulerMetrics.SCHEDULED),
                "unschedulable",
                metrics.attempts(SchedulerMetrics.UNSCHEDULABLE),
                "errors",
                metrics.attempts(SchedulerMetrics.ERROR));
    }
}
