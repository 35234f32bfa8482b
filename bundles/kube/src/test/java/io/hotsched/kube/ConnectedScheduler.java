package io.hotsched.kube;

import io.hotsched.api.framework.PluginFactory;
import io.hotsched.core.config.ConfigParser;
import io.hotsched.core.registry.PluginHealth;
import io.hotsched.core.registry.PluginRegistry;
import io.hotsched.core.registry.Registration;
import io.hotsched.core.scheduler.Scheduler;
import io.hotsched.core.scheduler.SchedulerOptions;
import io.hotsched.testing.SimplePlugins;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.osgi.framework.Version;

/** A scheduler with the given plugins, connected over HTTP to an API server and synced. */
final class ConnectedScheduler implements AutoCloseable {

    /** The simple plugin set of the testing bundle, under the default plugins' names. */
    static Map<String, PluginFactory> simplePlugins() {
        Map<String, PluginFactory> m = new LinkedHashMap<>();
        m.put("PrioritySort", (a, h) -> new SimplePlugins.Sort());
        m.put("NodeResourcesFit", (a, h) -> new SimplePlugins.CpuFit());
        m.put("DefaultBinder", (a, h) -> new SimplePlugins.Binder(h));
        return m;
    }

    final Scheduler scheduler;
    final KubeConnection connection;

    ConnectedScheduler(String url, Map<String, PluginFactory> plugins, String config) throws Exception {
        PluginHealth health = new PluginHealth(5);
        scheduler = new Scheduler(
                new SchedulerOptions(4, Duration.ofSeconds(30), Duration.ofSeconds(5), 5, 100),
                new PluginRegistry(health),
                health,
                Clock.systemUTC());
        long id = 1;
        for (Map.Entry<String, PluginFactory> e : plugins.entrySet()) {
            scheduler.pluginAdded(new Registration(e.getKey(), e.getValue(), "test", Version.emptyVersion, id++));
        }
        var client = ClientFactory.create(url, null, 16);
        scheduler.setBackend(new KubeBackend(client, "hotsched"));
        scheduler.start(ConfigParser.parse(config, "scheduler.yaml"));
        connection = new KubeConnection(client, scheduler.events());
        connection.start();
        if (!connection.awaitSynced(20, TimeUnit.SECONDS)) {
            close();
            throw new IllegalStateException("the informers did not sync within 20 s");
        }
    }

    @Override
    public void close() {
        connection.close();
        scheduler.close();
    }
}
