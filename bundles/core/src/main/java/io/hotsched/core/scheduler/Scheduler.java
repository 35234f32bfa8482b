package io.hotsched.core.scheduler;

import io.hotsched.api.cluster.ClusterBackend;
import io.hotsched.api.framework.Code;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;
import io.hotsched.core.admin.ExplainView;
import io.hotsched.core.cache.ClusterCache;
import io.hotsched.core.cache.ObjectStore;
import io.hotsched.core.config.ConfigException;
import io.hotsched.core.config.SchedulerConfig;
import io.hotsched.core.metrics.SchedulerMetrics;
import io.hotsched.core.queue.QueuedPod;
import io.hotsched.core.queue.QueueingHints;
import io.hotsched.core.queue.SchedulingQueue;
import io.hotsched.core.registry.PluginHealth;
import io.hotsched.core.registry.PluginRegistry;
import io.hotsched.core.registry.Registration;
import io.hotsched.core.runtime.CallWatch;
import io.hotsched.core.runtime.CoarseClock;
import io.hotsched.core.runtime.FrameworkImpl;
import io.hotsched.core.runtime.FrameworkServices;
import io.hotsched.core.runtime.PluginInstance;
import io.hotsched.core.runtime.PluginTimeouts;
import io.hotsched.core.runtime.SchedulerHooks;
import io.hotsched.core.runtime.SchedulingAlgorithm;
import io.hotsched.core.runtime.Snapshot;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler: cluster events in ({@link #events()}), one scheduling loop, bindings out. Builds
 * its parts and owns the threads (one scheduling thread, the Filter/Score workers, the binding
 * slots, a status writer and a housekeeping timer that also runs the {@link Watchdog}); plugins
 * own none.
 */
public final class Scheduler implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Scheduler.class);

    private final SchedulerOptions options;
    private final PluginRegistry registry;
    private final PluginHealth health;
    private final ClusterCache cache;
    private final SchedulingQueue queue;
    private final ProfileManager profiles;
    private final SwitchableParallelizer parallelizer;
    private final Random random = new Random();
    private final BindingSlots binders;
    private final ExecutorService statusWriter;
    private final ScheduledExecutorService housekeeping;
    private final BackgroundWork background = new BackgroundWork(4, "hotsched-background");
    private final Explanations explanations;
    private final SchedulingCycle cycle;
    private final EventHandlers events;
    private final Liveness liveness = new Liveness();
    private final Probes probes;
    private final Leadership leadership = new Leadership();
    private final Reporter reporter;
    private final Watchdog watchdog;
    private final PluginBudget budget;
    private final PluginTimeouts timeouts = new PluginTimeouts();
    private final CoarseClock coarseClock;
    private final SchedulerMetrics metrics = new SchedulerMetrics();
    private final ShadowRunner shadows;
    private final ObserveMode observeMode;
    private final ShadowControl shadowControl;

    private volatile ClusterBackend backend;
    private volatile FeatureGates gates = FeatureGates.defaults();
    private volatile SchedulingCycle.Loop loop;
    private volatile int loopsStarted;
    private volatile boolean running;

    public Scheduler(SchedulerOptions options, PluginRegistry registry, PluginHealth health, Clock clock) {
        this(options, registry, health, clock, new CoarseClock());
    }

    /**
     * @param callClock what plugin calls are timed with, for their time-outs (a {@link
     *     CoarseClock#manual} one in tests of late calls); closed with the scheduler
     */
    public Scheduler(
            SchedulerOptions options,
            PluginRegistry registry,
            PluginHealth health,
            Clock clock,
            CoarseClock callClock) {
        this.coarseClock = callClock;
        this.options = options;
        this.registry = registry;
        this.health = health;
        this.cache = new ClusterCache(options.assumedPodTtl(), clock);
        this.parallelizer = new SwitchableParallelizer(Runtime.getRuntime().availableProcessors());
        this.binders = new BindingSlots(options.bindingThreads(), "hotsched-binder");
        this.statusWriter = Executors.newSingleThreadExecutor(daemon("hotsched-status"));
        this.housekeeping = Executors.newSingleThreadScheduledExecutor(daemon("hotsched-housekeeping"));
        this.explanations = new Explanations(options.explanations());
        this.queue = new SchedulingQueue(clock, Duration.ofSeconds(1), Duration.ofSeconds(10), this::preEnqueue);
        this.loop = new SchedulingCycle.Loop(null, new Snapshot(), new SchedulingAlgorithm(parallelizer, random));
        PluginFaults faults = new PluginFaults(health, registry, metrics);
        CallWatch callWatch = new CallWatch(metrics.pluginUsage);
        this.shadows = new ShadowRunner(this::schedulingCpu, callWatch, health, registry, housekeeping);
        metrics.addSection(shadows::writeText);
        Observer observer = new Observer(shadows::runObserving);
        this.budget = new PluginBudget(metrics.pluginUsage, callWatch, registry, faults);
        ObjectStore objects = new ObjectStore();
        // such calls hold the queue's lock: a quarantine rebuilds profiles, which takes it too
        BiConsumer<PluginInstance, String> faultsOutsideAttempts =
                (plugin, fault) -> housekeeping.execute(() -> faults.failed(plugin, fault));
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
                metrics,
                faultsOutsideAttempts,
                cache.reservations(),
                new SchedulerHooks(gate -> gates.known(gate) && gates.enabled(gate), queue::activate, background));
        this.profiles = new ProfileManager(registry, services);
        this.profiles.addListener(this::profileChanged);
        this.reporter =
                new Reporter(explanations, clock, metrics, statusWriter, () -> backend, new PendingNominations());
        this.events =
                new EventHandlers(cache, queue, profiles, objects, leadership, reporter, observer, (plugin, fault) -> {
                    metrics.countFault(plugin.name(), QueueingHints.FAULT_POINT, SchedulerMetrics.FAULT_ERROR);
                    faultsOutsideAttempts.accept(plugin, fault);
                });
        this.probes = new Probes(events, profiles, liveness);
        this.shadowControl = new ShadowControl(registry, shadows);
        this.observeMode = new ObserveMode(observer, profiles, registry, services, cache, shadows, events);
        FailureHandler failures = new FailureHandler(queue, reporter);
        BindingCycle binding =
                new BindingCycle(cache, queue, binders, failures, reporter, faults, leadership, housekeeping);
        this.cycle = new SchedulingCycle(profiles, cache, queue, binding, failures, reporter, faults, metrics, shadows);
        this.watchdog = new Watchdog(
                callWatch,
                coarseClock,
                cycle,
                binding,
                binders,
                shadows,
                parallelizer,
                health,
                registry,
                housekeeping,
                liveness,
                this::loopLeft);
        metrics.pendingPodsFrom(() -> {
            Map<String, Integer> c = new LinkedHashMap<>(queue.counts());
            // upstream's queue labels: what is in flight is not pending
            c.remove("inFlight");
            return c;
        });
    }

    private static ThreadFactory daemon(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** The feature gates plugins read through their handle ({@code Handle.featureEnabled}), from now on. */
    public void setFeatureGates(FeatureGates gates) {
        this.gates = gates;
    }

    /** Applies the first configuration and starts the loop; scheduling begins once the cluster is synced. */
    public synchronized void start(SchedulerConfig config) throws ConfigException {
        reload(config);
        running = true;
        housekeeping.scheduleWithFixedDelay(this::housekeep, 1, 1, TimeUnit.SECONDS);
        housekeeping.scheduleWithFixedDelay(queue::flushUnschedulableLeftover, 30, 30, TimeUnit.SECONDS);
        housekeeping.scheduleWithFixedDelay(
                watchdog::check, Watchdog.PERIOD_MILLIS, Watchdog.PERIOD_MILLIS, TimeUnit.MILLISECONDS);
        housekeeping.scheduleWithFixedDelay(shadows::tick, 100, 100, TimeUnit.MILLISECONDS);
        startLoop();
    }

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

    /** The watchdog took the loop off {@code left} (stuck in a call, or waiting for extenders). */
    private void loopLeft(Thread left) {
        if (running) {
            startLoop();
            LOG.info(
                    "Scheduling loop moved to thread {}; {} is left to finish",
                    loop.thread().getName(),
                    left.getName());
        }
    }

    private void runLoop(SchedulingCycle.Loop me) {
        try {
            events.awaitSynced();
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
                while (!leadership.leading() && running) {
                    leadership.await();
                }
                qp = queue.pop();
            } catch (InterruptedException e) {
                return;
            }
            if (qp == null) {
                return;
            }
            if (!leadership.leading()) {
                queue.addBackoff(qp, "this scheduler is not the leader");
                continue;
            }
            cycle.scheduleOne(qp, me);
        }
    }

    /**
     * Applies a new configuration atomically, or changes nothing and throws. Returns a line per
     * profile left paused, waiting for plugins.
     */
    public synchronized List<String> reload(SchedulerConfig config) throws ConfigException {
        List<String> paused = profiles.apply(config);
        queue.setBackoff(
                Duration.ofSeconds(config.podInitialBackoffSeconds()),
                Duration.ofSeconds(config.podMaxBackoffSeconds()));
        parallelizer.resize(config.parallelism(), housekeeping);
        events.profilesChanged();
        observeMode.reconfigured();
        return paused;
    }

    /**
     * Observe-only mode: profile {@code profile} decides for the pods of scheduler {@code
     * schedulerName} without acting ({@link ObserveMode}). Both empty: off.
     *
     * @throws IllegalArgumentException naming the setting and value when they cannot be observed
     */
    public synchronized void observe(String schedulerName, String profile) {
        observeMode.observe(schedulerName, profile);
    }

    /** Whether {@code f} are the figures of the observe-only mode in force. */
    public boolean observingWith(ShadowFigures f) {
        return observeMode.observingWith(f);
    }

    /** Observe-only mode, as {@code sched:status} shows it. */
    public String observingState() {
        return observeMode.state();
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
        binders.close(5000);
        statusWriter.shutdownNow();
        housekeeping.shutdownNow();
        background.stop();
        shadows.close();
        observeMode.stop();
        profiles.close();
        parallelizer.close();
        coarseClock.close();
    }

    private void housekeep() {
        try {
            queue.flushBackoffCompleted();
            budget.check(System.nanoTime());
            for (PodInfo p : cache.cleanupExpired()) {
                LOG.warn(
                        "Assumed pod {} expired: its binding never showed up; it is no longer counted on its node",
                        p.key());
                events.assumedExpired(p);
            }
        } catch (RuntimeException e) {
            LOG.warn("Housekeeping failed: {}", e.toString());
        }
    }

    private void profileChanged(ProfileState s) {
        observeMode.profileChanged(s);
        if (!s.ready()) {
            // pods that found the profile paused say why it is paused now, not why it was then
            queue.setFailure(
                    qp -> qp.unschedulablePlugins().contains(SchedulingCycle.PAUSED_PREFIX + s.name()),
                    "profile " + s.name() + " " + s.describe());
            return;
        }
        FrameworkImpl f = s.framework();
        queue.setLess(f::less);
        // a new framework (config reload, a plugin version arriving or leaving) may decide
        // differently: what the old one refused is no longer known to be unschedulable
        queue.moveIf(qp -> s.name().equals(qp.pod().schedulerName()));
    }

    private Status preEnqueue(PodInfo pod) {
        ProfileState s = profiles.profile(pod.schedulerName());
        if (s == null) {
            return Status.SUCCESS;
        }
        if (!s.ready()) {
            return null;
        }
        Status st = s.framework().runPreEnqueuePlugins(pod);
        if (st.code() == Code.ERROR && leadership.leading()) {
            // a gate that failed, not one that said no: no attempt will tell the pod why it waits
            reporter.preEnqueueFailed(pod, s.name(), st.message());
        }
        return st;
    }

    /** A plugin factory arrived: profiles using its name are rebuilt. */
    public void pluginAdded(Registration r) {
        registry.add(r);
    }

    /** A plugin factory arrived, in shadow when {@code shadow} (its bundle's {@code Hotsched-Shadow} header). */
    public void pluginAdded(Registration r, boolean shadow) {
        registry.add(r, shadow);
    }

    /** The CPU time the scheduling loop and its Filter/Score workers have taken, in nanos. */
    private long schedulingCpu() {
        long n = shadows.cpuOf(loop.thread());
        for (Thread t : parallelizer.workers()) {
            n += shadows.cpuOf(t);
        }
        return n;
    }

    /** Shadows on this replica: starting, stopping and promoting them, their figures and limits. */
    public ShadowControl shadows() {
        return shadowControl;
    }

    /** The scheduler is being stopped: profiles losing plugins now is expected, not a warning. */
    public void shuttingDown() {
        profiles.shuttingDown();
    }

    /**
     * A plugin factory leaves (its bundle stops): profiles are rebuilt without it (or paused), pods
     * waiting in Permit on it are rejected, and this returns once no attempt uses it, or after the
     * configured wait.
     */
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

    /** What {@code /readyz} answers: why not every pod it serves can be scheduled yet, or null. */
    public String notReady() {
        return probes.notReady(running);
    }

    /** What {@code /livez} answers: why it is not live (a call it cannot give up holds it), or null. */
    public String notLive() {
        return probes.notLive(running);
    }

    /** Where the cluster connection sends its events. */
    public EventHandlers events() {
        return events;
    }

    /** Whether this scheduler may schedule and bind now. */
    public boolean isLeading() {
        return leadership.leading();
    }

    /** The scheduler's metrics, as {@code /metrics} serves them. */
    public SchedulerMetrics metrics() {
        return metrics;
    }

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

    /** How much CPU time and heap a plugin may use before it is quarantined. */
    public PluginBudget budget() {
        return budget;
    }

    public PluginHealth health() {
        return health;
    }

    public ExplainView explain(String podKey) {
        return explanations.get(podKey);
    }

    /** Pods bound, found unschedulable, failed with an error since start. */
    public Map<String, Long> counters() {
        return Map.of(
                "scheduled", metrics.attempts(SchedulerMetrics.SCHEDULED),
                "unschedulable", metrics.attempts(SchedulerMetrics.UNSCHEDULABLE),
                "errors", metrics.attempts(SchedulerMetrics.ERROR));
    }
}
