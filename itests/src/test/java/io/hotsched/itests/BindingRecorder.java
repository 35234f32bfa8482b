package io.hotsched.itests;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts from the API server's side: an informer on the pods of one namespace notes when each pod
 * is first seen with a node, with which node and with which annotations; a pod seen later on
 * another node counts as bound twice.
 */
final class BindingRecorder implements AutoCloseable {

    /** A pod's binding as the informer saw it. */
    record Bound(String pod, String node, long seenNanos, Map<String, String> annotations) {
        String annotation(String key) {
            return annotations.get(key);
        }
    }

    private final Map<String, Bound> bound = new ConcurrentHashMap<>();
    private final AtomicInteger boundTwice = new AtomicInteger();
    private final SharedIndexInformer<Pod> informer;
    private final long wallMinusNanoMillis = System.currentTimeMillis() - System.nanoTime() / 1_000_000;

    BindingRecorder(KubernetesClient client, String namespace) {
        this.informer = client.pods().inNamespace(namespace).inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Pod pod) {
                seen(pod);
            }

            @Override
            public void onUpdate(Pod oldPod, Pod newPod) {
                seen(newPod);
            }

            @Override
            public void onDelete(Pod pod, boolean deletedFinalStateUnknown) {}
        });
    }

    private void seen(Pod pod) {
        String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
        if (node == null || node.isEmpty()) {
            return;
        }
        String name = pod.getMetadata().getName();
        Map<String, String> annotations = pod.getMetadata().getAnnotations() == null
                ? Map.of()
                : Map.copyOf(pod.getMetadata().getAnnotations());
        Bound before = bound.putIfAbsent(name, new Bound(name, node, System.nanoTime(), annotations));
        if (before != null && !before.node().equals(node)) {
            boundTwice.incrementAndGet();
        }
    }

    int bound() {
        return bound.size();
    }

    int boundTwice() {
        return boundTwice.get();
    }

    Bound of(String pod) {
        return bound.get(pod);
    }

    /** The bindings of the pods whose names start with {@code prefix}, in the order seen. */
    List<Bound> named(String prefix) {
        return inOrder().stream().filter(b -> b.pod().startsWith(prefix)).toList();
    }

    /** Every binding in the order the informer saw them. */
    List<Bound> inOrder() {
        List<Bound> all = new ArrayList<>(bound.values());
        all.sort(Comparator.comparingLong(Bound::seenNanos));
        return all;
    }

    /** Where the longest pause was: the pods before and after it and the wall-clock time it began, to match with the log. */
    String longestGapWhere() {
        List<Bound> all = inOrder();
        int at = 0;
        long gap = -1;
        for (int i = 1; i < all.size(); i++) {
            long g = all.get(i).seenNanos() - all.get(i - 1).seenNanos();
            if (g > gap) {
                gap = g;
                at = i;
            }
        }
        if (gap < 0) {
            return "none";
        }
        Bound before = all.get(at - 1);
        java.time.LocalTime began = java.time.LocalTime.ofInstant(
                java.time.Instant.ofEpochMilli(wallMinusNanoMillis + before.seenNanos() / 1_000_000),
                java.time.ZoneId.systemDefault());
        return "after " + before.pod() + " at " + began + ", before "
                + all.get(at).pod();
    }

    /** The longest time between two bindings seen one after the other, in milliseconds. */
    long longestGapMillis() {
        List<Bound> all = inOrder();
        long gap = 0;
        for (int i = 1; i < all.size(); i++) {
            gap = Math.max(gap, all.get(i).seenNanos() - all.get(i - 1).seenNanos());
        }
        return gap / 1_000_000;
    }

    @Override
    public void close() {
        informer.close();
    }
}
