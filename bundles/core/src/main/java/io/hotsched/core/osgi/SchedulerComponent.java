package io.hotsched.core.osgi;

import io.hotsched.api.cluster.ClusterBackend;
import io.hotsched.api.cluster.ClusterEvents;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.core.admin.ExplainView;
import io.hotsched.core.admin.PluginView;
import io.hotsched.core.admin.ProfileView;
import io.hotsched.core.admin.QueueView;
import io.hotsched.core.admin.SchedulerAdmin;
import io.hotsched.core.admin.ShadowView;
import io.hotsched.core.config.ConfigException;
import io.hotsched.core.config.ExtensionPoint;
import io.hotsched.core.registry.PluginHealth;
import io.hotsched.core.registry.PluginRegistry;
import io.hotsched.core.registry.Registration;
import io.hotsched.core.runtime.PluginTimeouts;
import io.hotsched.core.scheduler.FeatureGates;
import io.hotsched.core.scheduler.ForwardingClusterEvents;
import io.hotsched.core.scheduler.Scheduler;
import io.hotsched.core.scheduler.SchedulerOptions;
import io.hotsched.core.settings.SettingsCheck;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.Version;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.osgi.service.metatype.annotations.Designate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler as an OSGi component: tracks every {@link PluginFactory} service (dynamic,
 * greedy), uses whichever {@link ClusterBackend} is registered, registers {@link ClusterEvents}
 * for cluster connections and {@link SchedulerAdmin} for the shell, and reloads the configuration
 * file when it changes.
 */
@Component(
        immediate = true,
        configurationPid = "io.hotsched.scheduler",
        configurationPolicy = ConfigurationPolicy.OPTIONAL,
        service = {ClusterEvents.class, SchedulerAdmin.class})
@Designate(ocd = SchedulerSettings.class)
public final class SchedulerComponent extends ForwardingClusterEvents implements SchedulerAdmin {

    private static final Logger LOG = LoggerFactory.getLogger(SchedulerComponent.class);

    private final PluginHealth health = new PluginHealth(5);
    private final PluginRegistry registry = new PluginRegistry(health);
    private final Map<Long, Registration> registrations = new ConcurrentHashMap<>();
    private final ShadowedBundles shadowedBundles = new ShadowedBundles();
    private volatile Scheduler scheduler;
    private volatile ClusterBackend backend;
    private ScheduledExecutorService watcherThread;
    private ConfigSource config;
    /** The settings in force: a changed value that is not valid keeps its value from here. */
    private volatile SchedulerSettings settings;

    private final MetricsEndpoint metrics = new MetricsEndpoint(() -> scheduler);
    private final BundleThreads bundleThreads = new BundleThreads(2_000, LOG::error);

    @Activate
    private volatile BundleContext bundleContext;

    void activate(BundleContext context, Map<String, Object> properties) {
        bundleContext = context;
        context.addBundleListener(bundleThreads);
        // read through the check, not SCR's conversion: a value of the wrong type would throw there
        SchedulerSettings settings = SettingsCheck.read(SchedulerSettings.class, properties, null, LOG::error);
        this.settings = settings;
        health.setThreshold(settings.quarantineThreshold());
        Scheduler s = new Scheduler(
                new SchedulerOptions(
                        settings.bindingThreads(),
                        Duration.ofSeconds(settings.assumedPodTtlSeconds()),
                        Duration.ofSeconds(settings.pluginRemovalWaitSeconds()),
                        settings.quarantineThreshold(),
                        settings.explanations()),
                registry,
                health,
                Clock.systemUTC());
        s.setBackend(backend);
        applyLimits(s, settings);
        applyFeatureGates(s, settings);
        s.shadows().setLimits(settings.shadowSamplePercent(), settings.shadowCpuSharePercent());
        config = new ConfigSource(context, settings);
        try {
            s.start(config.initial());
        } catch (ConfigException e) {
            // the file parsed, but its profiles do not build (a plugin's args)
            try {
                s.start(config.refusedAtStart(e));
            } catch (ConfigException impossible) {
                throw new IllegalStateException(impossible);
            }
        }
        s.metrics().threadsLeftFrom(bundleThreads::stillRunning);
        applyObserving(s, settings);
        scheduler = s;
        watcherThread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "hotsched-config-watcher");
            t.setDaemon(true);
            return t;
        });
        ConfigFileWatcher watcher = new ConfigFileWatcher(config.file(), f -> LOG.info(reload()));
        int poll = Math.max(1, settings.configPollSeconds());
        watcherThread.scheduleWithFixedDelay(watcher::check, poll, poll, TimeUnit.SECONDS);
        metrics.start(context, settings.metricsAddress());
    }

    @Modified
    void modified(Map<String, Object> properties) {
        SchedulerSettings settings = SettingsCheck.read(SchedulerSettings.class, properties, this.settings, LOG::error);
        this.settings = settings;
        health.setThreshold(settings.quarantineThreshold());
        Scheduler s = scheduler;
        if (s != null) {
            applyLimits(s, settings);
            applyFeatureGates(s, settings);
            s.shadows().setLimits(settings.shadowSamplePercent(), settings.shadowCpuSharePercent());
            applyObserving(s, settings);
        }
        metrics.serveOn(settings.metricsAddress());
    }

    /** A pair that cannot be observed is logged naming the setting and value, and observe-only mode stays as it was. */
    private static void applyObserving(Scheduler s, SchedulerSettings settings) {
        try {
            s.observe(settings.observeSchedulerName(), settings.observeProfile());
        } catch (IllegalArgumentException e) {
            LOG.error(
                    "io.hotsched.scheduler: {}; observe-only mode unchanged ({})", e.getMessage(), s.observingState());
        }
    }

    /** A value that does not parse leaves the gates as they are, and says which pair is wrong. */
    private static void applyFeatureGates(Scheduler s, SchedulerSettings settings) {
        FeatureGates gates;
        try {
            gates = FeatureGates.parse(settings.featureGates());
        } catch (IllegalArgumentException e) {
            LOG.error(
                    "etc/io.hotsched.scheduler.cfg: featureGates: {}; the feature gates stay as they were",
                    e.getMessage());
            return;
        }
        s.queue().setPopFromBackoffQ(gates.enabled(FeatureGates.POP_FROM_BACKOFF_Q));
        s.setFeatureGates(gates);
    }

    private static void applyLimits(Scheduler s, SchedulerSettings settings) {
        s.budget()
                .set(
                        settings.pluginCpuMillisPerSecond(),
                        settings.pluginAllocatedMegabytesPerSecond() << 20,
                        settings.pluginUsageWindowSeconds(),
                        settings.pluginUsageSampling());
        PluginTimeouts t = s.timeouts();
        t.set(ExtensionPoint.PRE_FILTER, settings.timeoutPreFilterMillis());
        t.set(ExtensionPoint.FILTER, settings.timeoutFilterMillis());
        t.set(ExtensionPoint.POST_FILTER, settings.timeoutPostFilterMillis());
        t.set(ExtensionPoint.PRE_SCORE, settings.timeoutPreScoreMillis());
        t.set(ExtensionPoint.SCORE, settings.timeoutScoreMillis());
        t.set(ExtensionPoint.RESERVE, settings.timeoutReserveMillis());
        t.set(ExtensionPoint.PERMIT, settings.timeoutPermitMillis());
        t.set(ExtensionPoint.PRE_BIND, settings.timeoutPreBindMillis());
        t.set(ExtensionPoint.BIND, settings.timeoutBindMillis());
        t.set(ExtensionPoint.POST_BIND, settings.timeoutPostBindMillis());
        t.set(ExtensionPoint.UNRESERVE, settings.timeoutUnreserveMillis());
        t.set(ExtensionPoint.PRE_FILTER_ADD_POD, settings.timeoutPreFilterExtensionMillis());
        t.set(ExtensionPoint.PRE_FILTER_REMOVE_POD, settings.timeoutPreFilterExtensionMillis());
        t.set(ExtensionPoint.SCORE_NORMALIZE, settings.timeoutNormalizeScoreMillis());
        t.set(ExtensionPoint.PRE_ENQUEUE, settings.timeoutPreEnqueueMillis());
        t.setExtenderWait(settings.extenderWaitMillis());
    }

    @Deactivate
    void deactivate() {
        if (watcherThread != null) {
            watcherThread.shutdownNow();
        }
        metrics.close();
        BundleContext c = bundleContext;
        if (c != null) {
            try {
                c.removeBundleListener(bundleThreads);
            } catch (IllegalStateException e) {
                // the core's context is gone already
            }
        }
        bundleThreads.close();
        Scheduler s = scheduler;
        scheduler = null;
        if (s != null) {
            s.close();
        }
    }

    // ---- plugins and the cluster backend -------------------------------------------------------------

    @Reference(
            cardinality = ReferenceCardinality.MULTIPLE,
            policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    void addPluginFactory(PluginFactory factory, ServiceReference<PluginFactory> ref) {
        Object name = ref.getProperty(PluginFactory.NAME_PROPERTY);
        if (!(name instanceof String n) || n.isBlank()) {
            LOG.error(
                    "A PluginFactory from bundle {} has no {} service property; it is ignored",
                    ref.getBundle().getSymbolicName(),
                    PluginFactory.NAME_PROPERTY);
            return;
        }
        Registration r = new Registration(
                n, factory, ref.getBundle().getSymbolicName(), ref.getBundle().getVersion(), (Long)
                        ref.getProperty(Constants.SERVICE_ID));
        registrations.put(r.serviceId(), r);
        String shadowBy = ShadowHeader.inShadow(ref.getBundle())
                ? ShadowHeader.NAME
                : shadowedBundles.contains(ref.getBundle()) ? "SchedulerPlugin spec.shadow" : null;
        boolean shadow = shadowBy != null;
        LOG.info("Plugin {} arrived{}", r.describe(), shadow ? " in shadow (" + shadowBy + ")" : "");
        Scheduler s = scheduler;
        if (s != null) {
            s.pluginAdded(r, shadow);
        } else {
            registry.add(r, shadow);
        }
    }

    /** Plugin bundles stop before the core when the framework stops: their leaving is no news then. */
    private boolean frameworkStopping() {
        BundleContext c = bundleContext;
        try {
            return c != null && c.getBundle(0).getState() == Bundle.STOPPING;
        } catch (IllegalStateException e) {
            return true;
        }
    }

    void removePluginFactory(PluginFactory factory, ServiceReference<PluginFactory> ref) {
        Registration r = registrations.remove((Long) ref.getProperty(Constants.SERVICE_ID));
        if (r == null) {
            return;
        }
        Scheduler s = scheduler;
        if (s != null) {
            if (frameworkStopping()) {
                s.shuttingDown();
            }
            s.pluginRemoved(r);
        } else {
            registry.remove(r);
        }
        LOG.info("Plugin {} left", r.describe());
    }

    @Reference(
            cardinality = ReferenceCardinality.OPTIONAL,
            policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    void setClusterBackend(ClusterBackend b) {
        backend = b;
        Scheduler s = scheduler;
        if (s != null) {
            s.setBackend(b);
        }
    }

    void unsetClusterBackend(ClusterBackend b) {
        if (backend == b) {
            backend = null;
            Scheduler s = scheduler;
            if (s != null) {
                s.setBackend(null);
            }
        }
    }

    private Scheduler scheduler() {
        Scheduler s = scheduler;
        if (s == null) {
            throw new IllegalStateException("the scheduler is not running");
        }
        return s;
    }

    // ---- ClusterEvents ---------------------------------------------------------------------------------

    @Override
    protected ClusterEvents target() {
        return scheduler().events();
    }

    // ---- SchedulerAdmin ---------------------------------------------------------------------------------

    @Override
    public List<PluginView> plugins() {
        return AdminViews.plugins(scheduler());
    }

    @Override
    public List<ProfileView> profiles() {
        return AdminViews.profiles(scheduler());
    }

    @Override
    public QueueView queue() {
        return AdminViews.queue(scheduler());
    }

    @Override
    public Optional<ExplainView> explain(String podKey) {
        return AdminViews.explain(scheduler(), podKey);
    }

    @Override
    public synchronized String reload() {
        try {
            List<String> paused = scheduler().reload(config.load());
            StringBuilder msg = new StringBuilder("Applied the configuration in ").append(config.file());
            paused.forEach(
                    line -> msg.append(System.lineSeparator()).append("  ").append(line));
            return msg.toString();
        } catch (ConfigException e) {
            return config.refusedChange(e);
        }
    }

    @Override
    public boolean release(String name) {
        return scheduler().release(name);
    }

    @Override
    public Map<String, Object> pluginState(String plugin, String node) {
        return AdminViews.pluginState(scheduler(), plugin, node);
    }

    @Override
    public List<ShadowView> shadows() {
        return ShadowViews.of(scheduler());
    }

    @Override
    public String startShadow(String plugin, String version) {
        try {
            Registration r = scheduler().shadows().start(plugin, version);
            return "Started the shadow of " + r.describe() + " on this replica; "
                    + scheduler()
                            .registry()
                            .serving(plugin)
                            .map(Registration::describe)
                            .orElse("nothing")
                    + " serves";
        } catch (IllegalArgumentException | IllegalStateException e) {
            return "Not started: " + e.getMessage();
        }
    }

    @Override
    public String stopShadow(String plugin) {
        return scheduler()
                .shadows()
                .stop(plugin)
                .map(r -> "Stopped the shadow of " + r.describe() + " on this replica; it stands by" + fleetNote(r))
                .orElse(plugin + " has no version in shadow");
    }

    /** What a change on this replica leaves as it is on the others, when the shadow is the fleet's. */
    private String fleetNote(Registration r) {
        return shadowedBundles.containsKey(r.bundle(), r.version())
                ? ". A SchedulerPlugin puts " + r.bundle() + " " + r.version() + " in shadow (spec.shadow: true):"
                        + " the other replicas keep it in shadow; set spec.shadow to false to promote it on every"
                        + " replica"
                : "";
    }

    @Override
    public String promote(String plugin) {
        try {
            Registration r = scheduler().shadows().promote(plugin);
            return "Promoted " + r.describe() + " on this replica: it serves, the version that served stands by"
                    + fleetNote(r);
        } catch (IllegalArgumentException e) {
            return "Not promoted: " + e.getMessage();
        }
    }

    @Override
    public List<String> shadowBundle(String symbolicName, String version, boolean shadow) {
        Scheduler s = scheduler;
        List<String> changed = shadowedBundles.set(
                symbolicName,
                Version.parseVersion(version),
                shadow,
                registrations.values(),
                registry,
                s == null ? null : s.shadows());
        changed.forEach(line -> LOG.info("Fleet-wide (SchedulerPlugin spec.shadow: {}): {}", shadow, line));
        return changed;
    }

    @Override
    public String status() {
        Scheduler s = scheduler();
        return "configuration: " + config.state() + "\ncluster: " + (backend == null ? "not connected" : "connected")
                + "\nnodes: "
                + s.cache().nodeCount() + ", pods on nodes: " + s.cache().podCount() + " (assumed "
                + s.cache().assumedCount() + ")\n"
                + "since start: " + s.counters() + "\nshadows: " + s.shadows().limits() + "\nobserve-only: "
                + s.observingState() + threadsLeft();
    }

    private String threadsLeft() {
        StringBuilder out = new StringBuilder();
        bundleThreads
                .stillRunning()
                .forEach((bundle, names) -> out.append("\nthreads left running by stopped bundle ")
                        .append(bundle)
                        .append(": ")
                        .append(String.join(", ", names)));
        return out.toString();
    }
}
