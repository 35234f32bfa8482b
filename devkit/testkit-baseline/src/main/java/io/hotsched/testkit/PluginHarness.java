package io.hotsched.testkit;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.core.admin.ExplainView;
import io.hotsched.core.config.ConfigException;
import io.hotsched.core.config.ConfigParser;
import io.hotsched.core.registry.PluginHealth;
import io.hotsched.core.registry.PluginRegistry;
import io.hotsched.core.registry.Registration;
import io.hotsched.core.scheduler.Scheduler;
import io.hotsched.core.scheduler.SchedulerOptions;
import io.hotsched.testing.InMemoryCluster;
import io.hotsched.testing.SimplePlugins;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.osgi.framework.Version;

/**
 * Runs a plugin as the scheduler will: the real core (queue, cache, the framework's PreFilter,
 * Filter, Score, NormalizeScore, Reserve, Permit and Bind, the same code that runs in hotsched)
 * over an in-memory cluster, with no OSGi framework. The plugin's factory is called with the
 * {@code pluginConfig} args of a real KubeSchedulerConfiguration, so defaulting and validation are
 * exercised too.
 *
 * <p>The profile ({@value #PROFILE}) enables, at every extension point, the plugin under test,
 * those added with {@link #beside}, and a small base set: PrioritySort, NodeResourcesFit (weight
 * 1; cpu and pod count only) and DefaultBinder, so a plugin's scores are weighed against another
 * plugin's as in a real profile.
 *
 * <pre>{@code
 * try (PluginHarness h = PluginHarness.of("MyPlugin", new MyPluginFactory()).args("minFree: 2")) {
 *     h.nodes(Nodes.node("n1").cpu("4").build(), Nodes.node("n2").cpu("8").build());
 *     Placement p = h.schedule(Pods.pod("p").cpu("1").build());
 *     assertEquals("n2", p.nodeOf("p"));
 * }
 * }</pre>
 */
public final class PluginHarness implements AutoCloseable {

    /** The scheduler name of the one profile: pods without a {@code schedulerName} get it. */
    public static final String PROFILE = "default-scheduler";

    private static final AtomicLong SERVICE_IDS = new AtomicLong(1);

    private record Entry(String name, PluginFactory factory, int weight, String args) {}

    private final List<Entry> plugins = new ArrayList<>();
    private final InMemoryCluster cluster = new InMemoryCluster();
    private final Outcomes outcomes = new Outcomes(cluster);
    private Duration timeout = Duration.ofSeconds(20);
    private Scheduler scheduler;

    private PluginHarness(String name, PluginFactory factory) {
        plugins.add(new Entry(name, factory, 0, null));
    }

    /** A harness for the plugin {@code name}, made by {@code factory}. */
    public static PluginHarness of(String name, PluginFactory factory) {
        return new PluginHarness(name, factory);
    }

    /** The plugin under test's {@code pluginConfig} args, as YAML (the lines under {@code args:}). */
    public PluginHarness args(String yaml) {
        Entry e = plugins.get(0);
        plugins.set(0, new Entry(e.name(), e.factory(), e.weight(), yaml));
        return this;
    }

    /** The plugin under test's Score weight (0: the configuration's default, 1). */
    public PluginHarness weight(int weight) {
        Entry e = plugins.get(0);
        plugins.set(0, new Entry(e.name(), e.factory(), weight, e.args()));
        return this;
    }

    /** Another plugin enabled in the same profile, with its weight and args (YAML, or null). */
    public PluginHarness beside(String name, PluginFactory factory, int weight, String args) {
        requireNotStarted();
        plugins.add(new Entry(name, factory, weight, args));
        return this;
    }

    /** How long {@link #schedule} waits for the pods' outcomes (default 20 s). */
    public PluginHarness timeout(Duration timeout) {
        this.timeout = timeout;
        return this;
    }

    /** Adds nodes to the cluster (before or after the first {@link #schedule}). */
    public PluginHarness nodes(Node... nodes) {
        for (Node n : nodes) {
            cluster.addNode(n);
        }
        return this;
    }

    /**
     * Creates {@code pods} in the cluster and waits until the scheduler bound each or marked it
     * unschedulable. Starts the scheduler on the first call.
     *
     * @throws IllegalArgumentException when the configuration is refused, e.g. because the
     *     plugin's factory found its args invalid (the message is the scheduler's, naming the field)
     */
    public Placement schedule(Pod... pods) throws InterruptedException {
        start();
        return outcomes.place(cluster, pods, timeout);
    }

    /**
     * Builds the profile and starts the scheduler without scheduling anything: a refused
     * configuration (invalid args) shows here as an {@link IllegalArgumentException}.
     */
    public PluginHarness start() {
        if (scheduler != null) {
            return this;
        }
        PluginHealth health = new PluginHealth(3);
        Scheduler s = new Scheduler(
                new SchedulerOptions(4, Duration.ofSeconds(30), Duration.ofSeconds(5), 3, 1000),
                new PluginRegistry(health),
                health,
                Clock.systemUTC());
        s.setBackend(outcomes);
        for (Entry e : plugins) {
            s.pluginAdded(registration(e.name(), e.factory()));
        }
        s.pluginAdded(registration("PrioritySort", (args, handle) -> new SimplePlugins.Sort()));
        s.pluginAdded(registration("NodeResourcesFit", (args, handle) -> new SimplePlugins.CpuFit()));
        s.pluginAdded(registration("DefaultBinder", (args, handle) -> new SimplePlugins.Binder(handle)));
        try {
            s.start(ConfigParser.parse(configuration(), "scheduler.yaml"));
        } catch (ConfigException e) {
            s.close();
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        scheduler = s;
        cluster.connect(s.events());
        return this;
    }

    /** The KubeSchedulerConfiguration the harness runs. */
    public String configuration() {
        StringBuilder enabled = new StringBuilder();
        StringBuilder config = new StringBuilder();
        for (Entry e : plugins) {
            enabled.append("      - name: ").append(e.name()).append('\n');
            if (e.weight() > 0) {
                enabled.append("        weight: ").append(e.weight()).append('\n');
            }
            if (e.args() != null && !e.args().isBlank()) {
                config.append("  - name: ").append(e.name()).append("\n    args:\n");
                e.args().lines().forEach(l -> config.append("      ").append(l).append('\n'));
            }
        }
        return """
                apiVersion: kubescheduler.config.k8s.io/v1
                kind: KubeSchedulerConfiguration
                profiles:
                - schedulerName: %s
                  plugins:
                    multiPoint:
                      enabled:
                %s      - name: PrioritySort
                      - name: NodeResourcesFit
                        weight: 1
                      - name: DefaultBinder
                      disabled:
                      - name: "*"
                %s""".formatted(PROFILE, enabled, config.isEmpty() ? "" : "  pluginConfig:\n" + config);
    }

    /** The last attempt of {@code pod} (a key or a name in default), as {@code sched:explain} shows it. */
    public ExplainView explain(String pod) {
        requireStarted();
        return scheduler.explain(pod.contains("/") ? pod : "default/" + pod);
    }

    /** The cluster the scheduler runs on: nodes, pods, bindings and events. */
    public InMemoryCluster cluster() {
        return cluster;
    }

    @Override
    public void close() {
        if (scheduler != null) {
            scheduler.close();
        }
        cluster.close();
    }

    private static Registration registration(String name, PluginFactory factory) {
        return new Registration(
                name, factory, "testkit." + name, Version.parseVersion("1.0.0"), SERVICE_IDS.incrementAndGet());
    }

    private void requireNotStarted() {
        if (scheduler != null) {
            throw new IllegalStateException("the scheduler has started: add plugins before the first schedule()");
        }
    }

    private void requireStarted() {
        if (scheduler == null) {
            throw new IllegalStateException("the scheduler has not started: call schedule() or start() first");
        }
    }
}
