package io.hotsched.bench.perf;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Counts scheduled pods per namespace from an informer, as scheduler_perf does: a pod counts once it has a node name. */
final class PodWatch implements AutoCloseable {

    private final Map<String, AtomicInteger> scheduled = new ConcurrentHashMap<>();
    private final Set<String> seen = ConcurrentHashMap.newKeySet();
    private final SharedIndexInformer<Pod> informer;

    PodWatch(KubernetesClient client) {
        informer = client.pods().inAnyNamespace().inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Pod pod) {
                note(pod);
            }

            @Override
            public void onUpdate(Pod oldPod, Pod newPod) {
                note(newPod);
            }

            @Override
            public void onDelete(Pod pod, boolean unknown) {
                if (seen.remove(pod.getMetadata().getUid())) {
                    scheduled.get(pod.getMetadata().getNamespace()).decrementAndGet();
                }
            }
        });
    }

    private void note(Pod pod) {
        String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
        if (node != null && !node.isEmpty() && seen.add(pod.getMetadata().getUid())) {
            scheduled.computeIfAbsent(pod.getMetadata().getNamespace(), k -> new AtomicInteger()).incrementAndGet();
        }
    }

    int scheduled(String namespace) {
        AtomicInteger n = scheduled.get(namespace);
        return n == null ? 0 : n.get();
    }

    @Override
    public void close() {
        informer.close();
    }
}
