package io.hotsched.testkit;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.hotsched.api.cluster.ClusterBackend;
import io.hotsched.testing.InMemoryCluster;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The cluster backend the scheduler writes to, in front of the in-memory cluster: it notes each
 * pod's outcome (bound, or marked unschedulable) as the scheduler reports it, so a test waits for
 * those reports rather than for time.
 */
final class Outcomes implements ClusterBackend {

    private final ClusterBackend cluster;
    private final Map<String, String> nodes = new HashMap<>();
    private final Map<String, String> pending = new HashMap<>();

    Outcomes(ClusterBackend cluster) {
        this.cluster = cluster;
    }

    /**
     * Waits until every pod of {@code keys} has an outcome, at most {@code timeout}; a pod that
     * still has none is reported as pending with a message saying so.
     */
    synchronized Placement await(Collection<String> keys, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!keys.stream().allMatch(k -> nodes.containsKey(k) || pending.containsKey(k))) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            Duration wait = Duration.ofNanos(left);
            wait(Math.max(1, wait.toMillis()));
        }
        Map<String, String> bound = new HashMap<>();
        Map<String, String> notBound = new HashMap<>();
        for (String k : keys) {
            if (nodes.containsKey(k)) {
                bound.put(k, nodes.get(k));
            } else {
                notBound.put(k, pending.getOrDefault(k, "no outcome within " + timeout));
            }
        }
        return new Placement(bound, notBound);
    }

    /**
     * Creates {@code pods} in {@code cluster} and waits until each has an outcome, at most
     * {@code timeout}; outcomes of earlier pods of the same names are forgotten first.
     */
    Placement place(InMemoryCluster cluster, Pod[] pods, Duration timeout) throws InterruptedException {
        Set<String> keys = new LinkedHashSet<>();
        for (Pod p : pods) {
            keys.add(key(p));
        }
        forget(keys);
        for (Pod p : pods) {
            cluster.addPod(p);
        }
        return await(keys, timeout);
    }

    /** Forgets the outcomes of {@code keys}, before they are scheduled again. */
    synchronized void forget(Collection<String> keys) {
        keys.forEach(k -> {
            nodes.remove(k);
            pending.remove(k);
        });
    }

    @Override
    public void bind(Pod pod, String nodeName) {
        cluster.bind(pod, nodeName);
        synchronized (this) {
            nodes.put(key(pod), nodeName);
            pending.remove(key(pod));
            notifyAll();
        }
    }

    @Override
    public void markUnschedulable(Pod pod, String reason, String message, String nominatedNodeName) {
        cluster.markUnschedulable(pod, reason, message, nominatedNodeName);
        synchronized (this) {
            if (!nodes.containsKey(key(pod))) {
                pending.put(key(pod), message);
                notifyAll();
            }
        }
    }

    @Override
    public void patchPod(Pod pod, UnaryOperator<Pod> change) {
        cluster.patchPod(pod, change);
    }

    @Override
    public void patchPodStatus(Pod pod, UnaryOperator<Pod> change) {
        cluster.patchPodStatus(pod, change);
    }

    @Override
    public <T extends HasMetadata> T update(T object) {
        return cluster.update(object);
    }

    @Override
    public <T extends HasMetadata> T updateStatus(T object) {
        return cluster.updateStatus(object);
    }

    @Override
    public void deletePod(Pod pod) {
        cluster.deletePod(pod);
    }

    @Override
    public void recordEvent(Pod pod, String type, String reason, String message) {
        cluster.recordEvent(pod, type, reason, message);
    }

    static String key(Pod pod) {
        return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
    }
}
