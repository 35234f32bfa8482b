package io.hotsched.core.support;

import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.core.admin.ExplainView;
import io.hotsched.core.config.ConfigParser;
import io.hotsched.core.config.SchedulerConfig;
import io.hotsched.core.registry.PluginHealth;
import io.hotsched.core.registry.PluginRegistry;
import io.hotsched.core.registry.Registration;
import io.hotsched.core.runtime.CoarseClock;
import io.hotsched.core.scheduler.Scheduler;
import io.hotsched.core.scheduler.SchedulerOptions;
import io.hotsched.testing.InMemoryCluster;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import io.hotsched.testing.SimplePlugins;
import java.time.Clock;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/** A scheduler over an in-memory cluster, with the small test plugin set registered. */
public final class SchedulerFixture implements AutoCloseable {

    /** The configuration's first lines: what comes after it is a list of profiles. */
    public static final String HEADER = """
            apiVersion: kubescheduler.config.k8s.io/v1
            kind: KubeSchedulerConfiguration
            profiles:
            """;

    /** A second profile, {@code plain}, with the base plugins only: it shows scheduling goes on. */
    public static final String PLAIN_PROFILE = """
            - schedulerName: plain
              plugins:
                multiPoint:
                  enabled:
                  - name: PrioritySort
                  - name: NodeResourcesFit
                  - name: DefaultBinder
                  disabled:
                  - name: "*"
            """;

    /**
     * A profile of {@code schedulerName} with {@code first} (plugin names) at every point, then
     * PrioritySort, NodeResourcesFit (weight 1) and DefaultBinder.
     */
    public static String profile(String schedulerName, String... first) {
        StringBuilder enabled = new StringBuilder();
        for (String name : first) {
            enabled.append("\n      - name: ").append(name);
        }
        return """
                - schedulerName: %s
                  plugins:
                    multiPoint:
                      enabled:%s
                      - name: PrioritySort
                      - name: NodeResourcesFit
                        weight: 1
                      - name: DefaultBinder
                      disabled:
                      - name: "*"
                """.formatted(schedulerName, enabled);
    }

    public static final String BASE = HEADER + profile("default-scheduler");

    /**
     * {@link #BASE} with more multiPoint entries after DefaultBinder, each given as the lines under
     * its {@code - name:} ("Gate", or "Prefer\n        weight: 10").
     */
    public static String withPlugins(String... entries) {
        StringBuilder extra = new StringBuilder("      - name: DefaultBinder\n");
        for (String e : entries) {
            extra.append("      - name: ").append(e).append('\n');
        }
        return BASE.replace("      - name: DefaultBinder\n", extra);
    }

    public final InMemoryCluster cluster = new InMemoryCluster();
    public final PluginHealth health = new PluginHealth(3);
    public final PluginRegistry registry = new PluginRegistry(health);
    public final Scheduler scheduler;

    public SchedulerFixture(SchedulerOptions options) {
        this(options, new CoarseClock());
    }

    /** With plugin calls timed by {@code callClock}, such as a {@link CoarseClock#manual} one. */
    public SchedulerFixture(CoarseClock callClock) {
        this(DEFAULT_OPTIONS, callClock);
    }

    private SchedulerFixture(SchedulerOptions options, CoarseClock callClock) {
        scheduler = new Scheduler(options, registry, health, Clock.systemUTC(), callClock);
        scheduler.setBackend(cluster);
    }

    public SchedulerFixture() {
        this(DEFAULT_OPTIONS);
    }

    private static final SchedulerOptions DEFAULT_OPTIONS =
            new SchedulerOptions(4, Duration.ofSeconds(30), Duration.ofSeconds(5), 3, 1000);

    /** Registers PrioritySort, NodeResourcesFit and DefaultBinder at version 1.0.0. */
    public SchedulerFixture withBasePlugins() {
        add("PrioritySort", TestPlugins.factory(h -> new SimplePlugins.Sort()), "1.0.0");
        add("NodeResourcesFit", TestPlugins.factory(h -> new SimplePlugins.CpuFit()), "1.0.0");
        add("DefaultBinder", TestPlugins.factory(SimplePlugins.Binder::new), "1.0.0");
        return this;
    }

    public Registration add(String name, PluginFactory f, String version) {
        Registration r = TestPlugins.registration(name, f, version);
        scheduler.pluginAdded(r);
        return r;
    }

    /** Registers {@code plugin} under its name at version 1.0.0: every profile gets this instance. */
    public Registration add(Plugin plugin) {
        return add(plugin.name(), TestPlugins.factory(h -> plugin), "1.0.0");
    }

    /**
     * Registers {@code plugin}, adds node n1 (4 cpu) and pod default/p (100m), and starts {@link
     * #BASE} with the plugin enabled after DefaultBinder.
     */
    public Registration startWithOnePod(Plugin plugin) throws Exception {
        Registration r = add(plugin);
        cluster.addNode(Nodes.node("n1").cpu("4").build());
        cluster.addPod(Pods.pod("p").cpu("100m").build());
        start(withPlugins(plugin.name()));
        return r;
    }

    public SchedulerFixture start(String yaml) throws Exception {
        SchedulerConfig c = ConfigParser.parse(yaml, "scheduler.yaml");
        scheduler.start(c);
        cluster.connect(scheduler.events());
        return this;
    }

    public static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return;
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        throw new AssertionError("not seen within 20 s: " + what);
    }

    /** What the default-scheduler profile says of itself ("running", "paused: waiting for ..."). */
    public String describe() {
        return scheduler.profiles().profile("default-scheduler").describe();
    }

    /** Waits until the last attempt at {@code podKey} ended in an error, and returns its message. */
    public String awaitError(String podKey) {
        await(podKey + " failed with an error", () -> {
            ExplainView e = scheduler.explain(podKey);
            return e != null && "error".equals(e.outcome());
        });
        return scheduler.explain(podKey).message();
    }

    /**
     * Waits until {@code pod} sits in the queue with a last failure starting {@code failure}: the
     * scheduler has taken the pod up and decided not to place it.
     */
    public void awaitQueued(String podKey, String failure) {
        await(
                podKey + " queued with \"" + failure + "...\"",
                () -> scheduler.queue().entries().stream()
                        .anyMatch(e -> e.podKey().equals(podKey)
                                && e.lastFailure() != null
                                && e.lastFailure().startsWith(failure)));
    }

    @Override
    public void close() {
        scheduler.close();
        cluster.close();
    }
}
