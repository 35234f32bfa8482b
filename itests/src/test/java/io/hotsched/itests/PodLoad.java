package io.hotsched.itests;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * Creates pods through the API at a steady rate on a thread of its own, noting when each was
 * created, until {@code total} exist. The rate is kept by a fixed-rate schedule: a slow create
 * delays the next one, and the schedule catches up after it.
 */
final class PodLoad implements AutoCloseable {

    private final ScheduledExecutorService pacer;
    private final AtomicInteger created = new AtomicInteger();
    private final Map<String, Long> createdAt = new ConcurrentHashMap<>();
    private volatile Throwable failure;

    PodLoad(KubernetesClient client, String namespace, String prefix, int total, int perSecond, String schedulerName) {
        this(client, namespace, prefix, total, perSecond, schedulerName, UnaryOperator.identity());
    }

    /** {@code shape} changes each pod before it is created (and may create what it needs first). */
    PodLoad(
            KubernetesClient client,
            String namespace,
            String prefix,
            int total,
            int perSecond,
            String schedulerName,
            UnaryOperator<Pod> shape) {
        pacer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "itest-pod-load");
            t.setDaemon(true);
            return t;
        });
        pacer.scheduleAtFixedRate(
                () -> {
                    int i = created.get();
                    if (i >= total || failure != null) {
                        pacer.shutdown();
                        return;
                    }
                    String name = prefix + i;
                    Pod pod = new PodBuilder()
                            .withNewMetadata()
                            .withName(name)
                            .withNamespace(namespace)
                            .endMetadata()
                            .withNewSpec()
                            .withSchedulerName(schedulerName)
                            .addNewContainer()
                            .withName("c")
                            .withImage("registry.k8s.io/pause:3.9")
                            .withNewResources()
                            .addToRequests("cpu", new Quantity("100m"))
                            .addToRequests("memory", new Quantity("64Mi"))
                            .endResources()
                            .endContainer()
                            .endSpec()
                            .build();
                    try {
                        createdAt.put(name, System.nanoTime());
                        client.pods()
                                .inNamespace(namespace)
                                .resource(shape.apply(pod))
                                .create();
                        if (created.incrementAndGet() >= total) {
                            pacer.shutdown();
                        }
                    } catch (Throwable t) {
                        failure = t;
                        pacer.shutdown();
                    }
                },
                0,
                1_000_000_000L / perSecond,
                TimeUnit.NANOSECONDS);
    }

    int created() {
        return created.get();
    }

    boolean done() {
        return pacer.isTerminated();
    }

    /** When the pod was created (System.nanoTime), or null. */
    Long createdAt(String pod) {
        return createdAt.get(pod);
    }

    /** Throws what stopped the load early, if anything did. */
    void check() {
        if (failure != null) {
            throw new AssertionError("creating pods failed: " + failure, failure);
        }
    }

    @Override
    public void close() throws InterruptedException {
        pacer.shutdownNow();
        pacer.awaitTermination(10, TimeUnit.SECONDS);
    }
}
