package io.hotsched.itests;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Creates pods through the API at a steady rate on a thread of its own, noting when each was
 * created, until {@code total} exist.
 */
final class PodLoad implements AutoCloseable {

    private final Thread thread;
    private final AtomicInteger created = new AtomicInteger();
    private final Map<String, Long> createdAt = new ConcurrentHashMap<>();
    private volatile Throwable failure;
    private volatile boolean stop;

    PodLoad(KubernetesClient client, String namespace, String prefix, int total, int perSecond, String schedulerName) {
        thread = new Thread(
                () -> {
                    long start = System.nanoTime();
                    try {
                        for (int i = 0; i < total && !stop; i++) {
                            long due = start + i * 1_000_000_000L / perSecond;
                            long wait = due - System.nanoTime();
                            if (wait > 0) {
                                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
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
                            createdAt.put(name, System.nanoTime());
                            client.pods().inNamespace(namespace).resource(pod).create();
                            created.incrementAndGet();
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } catch (Throwable t) {
                        failure = t;
                    }
                },
                "itest-pod-load");
        thread.setDaemon(true);
        thread.start();
    }

    int created() {
        return created.get();
    }

    boolean done() {
        return !thread.isAlive();
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
        stop = true;
        thread.join(10_000);
    }
}
