package io.hotsched.kube;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.embedded.EmbeddedApiServer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

/**
 * What the path tests share: an embedded API server, the test's own client of it, a scheduler
 * connected to it over HTTP, and a watcher that keeps every version of every pod the API server
 * sent. Pods are in namespace default.
 */
final class ApiServerFixture implements AutoCloseable {

    final EmbeddedApiServer server;
    final KubernetesClient client;
    ConnectedScheduler scheduler;
    /** Every version of every pod the API server sent, by name, in order. */
    final Map<String, List<Pod>> seen = new ConcurrentHashMap<>();
    /** The names of the pods whose deletion the API server sent, in order. */
    final List<String> deleted = new CopyOnWriteArrayList<>();

    private final Watch watch;

    /** An API server holding {@code nodes}. */
    ApiServerFixture(Node... nodes) throws Exception {
        server = new EmbeddedApiServer().start(0);
        client = server.client();
        watch = client.pods().inAnyNamespace().watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, Pod pod) {
                seen.computeIfAbsent(pod.getMetadata().getName(), k -> new CopyOnWriteArrayList<>())
                        .add(pod);
                if (action == Action.DELETED) {
                    deleted.add(pod.getMetadata().getName());
                }
            }

            @Override
            public void onClose(WatcherException e) {}
        });
        for (Node n : nodes) {
            create(n);
        }
    }

    /** Connects a scheduler straight to the API server, with a profile that enables all of {@code plugins}. */
    ConnectedScheduler connect(Map<String, PluginFactory> plugins) throws Exception {
        return connect(plugins, ConnectedScheduler.config(plugins));
    }

    /** Connects a scheduler straight to the API server. */
    ConnectedScheduler connect(Map<String, PluginFactory> plugins, String config) throws Exception {
        return connect(server.url(), plugins, config);
    }

    /** Connects a scheduler to the API server through {@code client}. */
    ConnectedScheduler connect(
            io.fabric8.kubernetes.client.KubernetesClient client, Map<String, PluginFactory> plugins, String config)
            throws Exception {
        scheduler = new ConnectedScheduler(client, plugins, config);
        return scheduler;
    }

    /** Connects a scheduler to the API server at {@code url} (a proxy in front of it, say). */
    ConnectedScheduler connect(String url, Map<String, PluginFactory> plugins, String config) throws Exception {
        scheduler = new ConnectedScheduler(url, plugins, config);
        return scheduler;
    }

    Node create(Node node) {
        return client.nodes().resource(node).create();
    }

    Pod create(Pod pod) {
        return client.pods().resource(pod).create();
    }

    void delete(String pod) {
        client.pods().inNamespace("default").withName(pod).delete();
    }

    Pod get(String name) {
        return client.pods().inNamespace("default").withName(name).get();
    }

    /** The node of pod {@code name}; null when it is not bound or does not exist. */
    String nodeOf(String name) {
        Pod p = get(name);
        return p == null ? null : p.getSpec().getNodeName();
    }

    /** The pods the watcher saw bound, as many as there were bindings. */
    long seenBound() {
        return seen.values().stream()
                .filter(versions -> versions.stream().anyMatch(p -> p.getSpec().getNodeName() != null))
                .count();
    }

    /** Whether pod {@code name} carries a PodScheduled condition with {@code message}. */
    boolean hasScheduledCondition(String name, String message) {
        Pod p = get(name);
        return p != null
                && p.getStatus() != null
                && p.getStatus().getConditions() != null
                && p.getStatus().getConditions().stream()
                        .anyMatch(c -> "PodScheduled".equals(c.getType()) && message.equals(c.getMessage()));
    }

    /** The events of namespace default with {@code reason}. */
    List<Event> events(String reason) {
        return client.v1().events().inNamespace("default").list().getItems().stream()
                .filter(e -> reason.equals(e.getReason()))
                .toList();
    }

    static void await(String what, BooleanSupplier c) throws InterruptedException {
        Await.until(what, 20, c);
    }

    @Override
    public void close() {
        watch.close();
        if (scheduler != null) {
            scheduler.close();
        }
        server.close();
    }
}
