package io.hotsched.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hotsched.api.cluster.ClusterEvents;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.core.config.ConfigParser;
import io.hotsched.core.registry.PluginHealth;
import io.hotsched.core.registry.PluginRegistry;
import io.hotsched.core.registry.Registration;
import io.hotsched.core.scheduler.ForwardingClusterEvents;
import io.hotsched.core.scheduler.Scheduler;
import io.hotsched.core.scheduler.SchedulerOptions;
import io.hotsched.plugins.defaults.defaultbinder.DefaultBinder;
import io.hotsched.plugins.defaults.defaultbinder.DefaultBinderFactory;
import io.hotsched.plugins.defaults.noderesourcesfit.NodeResourcesFit;
import io.hotsched.plugins.defaults.noderesourcesfit.NodeResourcesFitFactory;
import io.hotsched.plugins.defaults.queuesort.PrioritySort;
import io.hotsched.plugins.defaults.queuesort.PrioritySortFactory;
import io.hotsched.testing.SimplePlugins;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.osgi.framework.Version;

/**
 * A scheduler with the given plugins, connected over HTTP to an API server and synced; it notes
 * the last version of every object its connection delivered, so a test can wait until the
 * scheduler has seen a change instead of waiting for a while.
 */
final class ConnectedScheduler implements AutoCloseable {

    /** The simple plugin set of the testing bundle, under the default plugins' names. */
    static Map<String, PluginFactory> simplePlugins() {
        Map<String, PluginFactory> m = new LinkedHashMap<>();
        m.put("PrioritySort", (a, h) -> new SimplePlugins.Sort());
        m.put("NodeResourcesFit", (a, h) -> new SimplePlugins.CpuFit());
        m.put("DefaultBinder", (a, h) -> new SimplePlugins.Binder(h));
        return m;
    }

    /** The shipped PrioritySort, NodeResourcesFit and DefaultBinder, with {@code name} between them. */
    static Map<String, PluginFactory> defaultPluginsAnd(String name, PluginFactory plugin) {
        Map<String, PluginFactory> m = new LinkedHashMap<>();
        m.put(PrioritySort.NAME, new PrioritySortFactory());
        m.put(NodeResourcesFit.NAME, new NodeResourcesFitFactory());
        m.put(name, plugin);
        m.put(DefaultBinder.NAME, new DefaultBinderFactory());
        return m;
    }

    /** A configuration of one profile with exactly {@code plugins} as its multiPoint plugins. */
    static String config(String schedulerName, Collection<String> plugins) {
        String enabled = plugins.stream().map(p -> "{name: " + p + "}").collect(Collectors.joining(", "));
        return """
                apiVersion: kubescheduler.config.k8s.io/v1
                kind: KubeSchedulerConfiguration
                profiles:
                - schedulerName: %s
                  plugins:
                    multiPoint:
                      enabled: [%s]
                      disabled: [{name: "*"}]
                """.formatted(schedulerName, enabled);
    }

    /** The default profile with the plugins of {@code plugins}, in their order. */
    static String config(Map<String, PluginFactory> plugins) {
        return config("default-scheduler", plugins.keySet());
    }

    /** A scheduler with {@code plugins} registered, not started. */
    static Scheduler newScheduler(Map<String, PluginFactory> plugins) {
        PluginHealth health = new PluginHealth(5);
        Scheduler s = new Scheduler(
                new SchedulerOptions(4, Duration.ofSeconds(30), Duration.ofSeconds(5), 5, 100),
                new PluginRegistry(health),
                health,
                Clock.systemUTC());
        long id = 1;
        for (Map.Entry<String, PluginFactory> e : plugins.entrySet()) {
            s.pluginAdded(new Registration(e.getKey(), e.getValue(), "test", Version.emptyVersion, id++));
        }
        return s;
    }

    final Scheduler scheduler;
    final KubeConnection connection;
    private final Map<String, HasMetadata> delivered = new ConcurrentHashMap<>();

    ConnectedScheduler(String url, Map<String, PluginFactory> plugins, String config) throws Exception {
        this(ClientFactory.create(url, null, 16), plugins, config);
    }

    /** A scheduler connected through {@code client} (one with a short request time-out, say). */
    ConnectedScheduler(KubernetesClient client, Map<String, PluginFactory> plugins, String config) throws Exception {
        this(client, plugins, config, "hotsched");
    }

    /** @param component the name its events are reported under */
    ConnectedScheduler(KubernetesClient client, Map<String, PluginFactory> plugins, String config, String component)
            throws Exception {
        scheduler = newScheduler(plugins);
        scheduler.setBackend(new KubeBackend(client, component));
        scheduler.start(ConfigParser.parse(config, "scheduler.yaml"));
        connection = new KubeConnection(client, new Noting());
        connection.start();
        if (!connection.awaitSynced(20, TimeUnit.SECONDS)) {
            close();
            throw new IllegalStateException("the informers did not sync within 20 s");
        }
    }

    /**
     * The last version of {@code kind} {@code name} ("namespace/name" for pods) the scheduler has
     * been given and has returned from; null when none or after its deletion.
     */
    HasMetadata delivered(String kind, String name) {
        return delivered.get(kind + " " + name);
    }

    /** Whether the scheduler has been given the version {@code resourceVersion} of the object, or a later one. */
    boolean hasSeen(String kind, String name, String resourceVersion) {
        HasMetadata o = delivered(kind, name);
        return o != null && Long.parseLong(o.getMetadata().getResourceVersion()) >= Long.parseLong(resourceVersion);
    }

    private static String key(HasMetadata o) {
        String ns = o.getMetadata().getNamespace();
        return ns == null
                ? o.getMetadata().getName()
                : ns + "/" + o.getMetadata().getName();
    }

    /** Passes every change on to the scheduler, then notes it: once noted, the scheduler has it. */
    private final class Noting extends ForwardingClusterEvents {
        @Override
        protected ClusterEvents target() {
            return scheduler.events();
        }

        @Override
        protected void passedOn(String kind, HasMetadata oldObject, HasMetadata newObject) {
            if (newObject != null) {
                delivered.put(kind + " " + key(newObject), newObject);
            } else {
                delivered.remove(kind + " " + key(oldObject));
            }
        }
    }

    @Override
    public void close() {
        connection.close();
        scheduler.close();
    }
}
