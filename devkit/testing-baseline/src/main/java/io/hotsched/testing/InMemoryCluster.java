package io.hotsched.testing;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.hotsched.api.cluster.ClusterBackend;
import io.hotsched.api.cluster.ClusterEvents;
import io.hotsched.api.framework.ClusterException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * A cluster in memory for unit tests: holds nodes and pods, answers the scheduler's writes like an
 * API server (404 for a missing pod, 409 for a bound one), and delivers every change to the
 * connected {@link ClusterEvents} on one thread, in order, as an informer would. Binds can be made
 * to fail, to test retries.
 */
public final class InMemoryCluster implements ClusterBackend, AutoCloseable {

    /** A binding as the API server saw it. */
    public record Binding(String podKey, String nodeName) {}

    private final Map<String, Pod> pods = new ConcurrentHashMap<>();
    private final Map<String, Node> nodes = new ConcurrentHashMap<>();
    /** Other kinds (Device, NodeMetric, ...): kind to name to object. */
    private final Map<String, Map<String, HasMetadata>> objects = new ConcurrentHashMap<>();
    // appended per bind and event: a copy-on-write list would copy itself each time (quadratic over a benchmark's 60000
    // pods)
    private final List<Binding> bindings = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, AtomicInteger> boundByNamespace = new ConcurrentHashMap<>();
    private final List<Event> events = Collections.synchronizedList(new ArrayList<>());
    private final ExecutorService informer = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "in-memory-informer");
        t.setDaemon(true);
        return t;
    });
    private final AtomicInteger failingBinds = new AtomicInteger();
    private final AtomicLong versions = new AtomicLong();
    private volatile int failingBindCode = 500;
    private volatile ClusterEvents listener;

    /** Connects the scheduler: replays the current state, then reports synced. */
    public void connect(ClusterEvents events) {
        deliver(() -> {
            listener = events;
            nodes.values().forEach(events::nodeAdded);
            objects.forEach((kind, byName) -> byName.values().forEach(o -> events.objectChanged(kind, null, o)));
            pods.values().forEach(events::podAdded);
            events.synced();
        });
    }

    public void addNode(Node node) {
        nodes.put(node.getMetadata().getName(), node);
        deliver(() -> with(l -> l.nodeAdded(node)));
    }

    public void updateNode(Node node) {
        Node old = nodes.put(node.getMetadata().getName(), node);
        deliver(() -> with(l -> l.nodeUpdated(old, node)));
    }

    public void removeNode(String name) {
        Node old = nodes.remove(name);
        if (old != null) {
            deliver(() -> with(l -> l.nodeDeleted(old)));
        }
    }

    /**
     * Adds or replaces an object of another kind, by namespace and name, with the next
     * resourceVersion, as an API server stores it.
     */
    public void putObject(String kind, HasMetadata object) {
        object.getMetadata().setResourceVersion(String.valueOf(versions.incrementAndGet()));
        HasMetadata old =
                objects.computeIfAbsent(kind, k -> new ConcurrentHashMap<>()).put(objectKey(object), object);
        deliver(() -> with(l -> l.objectChanged(kind, old, object)));
    }

    /** The stored object of {@code kind} (namespace null for cluster-scoped kinds), or null. */
    public HasMetadata object(String kind, String namespace, String name) {
        Map<String, HasMetadata> byName = objects.get(kind);
        return byName == null ? null : byName.get(namespace == null ? name : namespace + "/" + name);
    }

    /** A PUT: refused with a 409 when {@code object}'s resourceVersion is not the stored one. */
    @Override
    public synchronized <T extends HasMetadata> T update(T object) {
        HasMetadata stored = object(
                object.getKind(),
                object.getMetadata().getNamespace(),
                object.getMetadata().getName());
        if (stored == null) {
            throw new ClusterException(
                    object.getKind() + " " + object.getMetadata().getName() + " not found", 404);
        }
        String version = object.getMetadata().getResourceVersion();
        if (version != null && !version.equals(stored.getMetadata().getResourceVersion())) {
            throw new ClusterException(
                    "Operation cannot be fulfilled on " + object.getKind() + " \""
                            + object.getMetadata().getName()
                            + "\": the object has been modified; please apply your changes to the latest version and try again",
                    409);
        }
        putObject(object.getKind(), object);
        return object;
    }

    /** The status PUT: in memory the object is one, so it is stored as {@link #update} stores it. */
    @Override
    public synchronized <T extends HasMetadata> T updateStatus(T object) {
        return update(object);
    }

    private static String objectKey(HasMetadata o) {
        String ns = o.getMetadata().getNamespace();
        return ns == null
                ? o.getMetadata().getName()
                : ns + "/" + o.getMetadata().getName();
    }

    public void addPod(Pod pod) {
        pods.put(key(pod), pod);
        deliver(() -> with(l -> l.podAdded(pod)));
    }

    public void updatePod(Pod pod) {
        Pod old = pods.put(key(pod), pod);
        deliver(() -> with(l -> l.podUpdated(old, pod)));
    }

    public void removePod(String namespace, String name) {
        Pod old = pods.remove(namespace + "/" + name);
        if (old != null) {
            deliver(() -> with(l -> l.podDeleted(old)));
        }
    }

    /** The next {@code times} binds fail with HTTP {@code code}. */
    public void failNextBinds(int times, int code) {
        failingBindCode = code;
        failingBinds.set(times);
    }

    @Override
    public synchronized void bind(Pod pod, String nodeName) {
        if (failingBinds.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new ClusterException("injected failure binding " + key(pod), failingBindCode);
        }
        Pod current = pods.get(key(pod));
        if (current == null) {
            throw new ClusterException("pods \"" + pod.getMetadata().getName() + "\" not found", 404);
        }
        String bound = current.getSpec().getNodeName();
        if (bound != null && !bound.isEmpty()) {
            throw new ClusterException("pod " + key(pod) + " is already assigned to node \"" + bound + "\"", 409);
        }
        Pod updated = new PodBuilder(current)
                .editSpec()
                .withNodeName(nodeName)
                .endSpec()
                .build();
        bindings.add(new Binding(key(pod), nodeName));
        boundByNamespace
                .computeIfAbsent(pod.getMetadata().getNamespace(), k -> new AtomicInteger())
                .incrementAndGet();
        pods.put(key(pod), updated);
        deliver(() -> with(l -> l.podUpdated(current, updated)));
    }

    @Override
    public synchronized void patchPod(Pod pod, UnaryOperator<Pod> change) {
        Pod current = pods.get(key(pod));
        if (current == null) {
            throw new ClusterException("pods \"" + pod.getMetadata().getName() + "\" not found", 404);
        }
        Pod updated = change.apply(new PodBuilder(current).build());
        pods.put(key(pod), updated);
        deliver(() -> with(l -> l.podUpdated(current, updated)));
    }

    @Override
    public void patchPodStatus(Pod pod, UnaryOperator<Pod> change) {
        patchPod(pod, change);
    }

    @Override
    public void deletePod(Pod pod) {
        removePod(pod.getMetadata().getNamespace(), pod.getMetadata().getName());
    }

    @Override
    public void recordEvent(Pod pod, String type, String reason, String message) {
        events.add(new EventBuilder()
                .withNewMetadata()
                .withNamespace(pod.getMetadata().getNamespace())
                .withName(pod.getMetadata().getName() + "." + events.size())
                .endMetadata()
                .withType(type)
                .withReason(reason)
                .withMessage(message)
                .withNewInvolvedObject()
                .withKind("Pod")
                .withName(pod.getMetadata().getName())
                .withNamespace(pod.getMetadata().getNamespace())
                .endInvolvedObject()
                .build());
    }

    @Override
    public synchronized void markUnschedulable(Pod pod, String reason, String message, String nominatedNodeName) {
        Pod current = pods.get(key(pod));
        if (current == null) {
            return;
        }
        PodCondition c = new PodConditionBuilder()
                .withType("PodScheduled")
                .withStatus("False")
                .withReason(reason)
                .withMessage(message)
                .build();
        PodBuilder b = new PodBuilder(current);
        List<PodCondition> conditions = new ArrayList<>();
        if (current.getStatus() != null && current.getStatus().getConditions() != null) {
            current.getStatus().getConditions().stream()
                    .filter(x -> !"PodScheduled".equals(x.getType()))
                    .forEach(conditions::add);
        }
        conditions.add(c);
        b.editOrNewStatus().withConditions(conditions).endStatus();
        if (nominatedNodeName != null) {
            b.editOrNewStatus()
                    .withNominatedNodeName(nominatedNodeName.isEmpty() ? null : nominatedNodeName)
                    .endStatus();
        }
        Pod updated = b.build();
        pods.put(key(pod), updated);
        deliver(() -> with(l -> l.podUpdated(current, updated)));
    }

    public Pod pod(String namespace, String name) {
        return pods.get(namespace + "/" + name);
    }

    public List<Pod> pods() {
        return List.copyOf(pods.values());
    }

    /** How many pods of {@code namespace} were bound (without copying the bindings; benchmarks poll it). */
    public int boundIn(String namespace) {
        var n = boundByNamespace.get(namespace);
        return n == null ? 0 : n.get();
    }

    /** Every successful bind, in order. */
    public List<Binding> bindings() {
        synchronized (bindings) {
            return List.copyOf(bindings);
        }
    }

    public List<Event> events() {
        synchronized (events) {
            return List.copyOf(events);
        }
    }

    /** Waits until every change so far has been delivered. */
    public void awaitDelivered() {
        try {
            informer.submit(() -> {}).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("informer thread stuck", e);
        }
    }

    @Override
    public void close() {
        informer.shutdownNow();
    }

    private void deliver(Runnable r) {
        informer.execute(r);
    }

    private void with(Consumer<ClusterEvents> c) {
        ClusterEvents l = listener;
        if (l != null) {
            c.accept(l);
        }
    }

    private static String key(Pod pod) {
        String ns = pod.getMetadata().getNamespace();
        return (ns == null ? "default" : ns) + "/" + pod.getMetadata().getName();
    }
}
