package io.hotsched.bench.perf;

import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.hotsched.embedded.EmbeddedApiServer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The API path's own ceiling: the same workload against the embedded API server, with a no-op
 * scheduler in the runner's JVM that binds each new pod to the next node in turn through the API
 * (4 binding threads), decides nothing, and records no event.
 */
final class NoopSchedulerTarget implements Target {

    private final EmbeddedApiServer api;
    private final KubernetesClient client;
    private final SharedIndexInformer<Pod> pending;
    private final ExecutorService binders = Executors.newFixedThreadPool(4);
    private final List<String> nodes = new CopyOnWriteArrayList<>();
    private final AtomicInteger next = new AtomicInteger();

    NoopSchedulerTarget() throws Exception {
        api = new EmbeddedApiServer().start(0);
        client = EmbeddedApiServer.newClient(api.url());
        pending = client.pods().inAnyNamespace().inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Pod pod) {
                String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
                if ((node == null || node.isEmpty()) && !nodes.isEmpty()) {
                    binders.execute(() -> bind(pod));
                }
            }

            @Override
            public void onUpdate(Pod oldPod, Pod newPod) {}

            @Override
            public void onDelete(Pod pod, boolean unknown) {}
        });
    }

    private void bind(Pod pod) {
        String node = nodes.get(Math.floorMod(next.getAndIncrement(), nodes.size()));
        try {
            client.bindings()
                    .inNamespace(pod.getMetadata().getNamespace())
                    .resource(new BindingBuilder()
                            .withNewMetadata()
                            .withName(pod.getMetadata().getName())
                            .withUid(pod.getMetadata().getUid())
                            .endMetadata()
                            .withNewTarget()
                            .withKind("Node")
                            .withName(node)
                            .endTarget()
                            .build())
                    .create();
        } catch (RuntimeException e) {
            // a churned pod may be gone already
        }
    }

    @Override
    public void namespace(String name) {
        ApiTarget.ensureNamespace(client, name);
    }

    @Override
    public void create(HasMetadata object) {
        client.resource(object).create();
        if (object instanceof Node n) {
            nodes.add(n.getMetadata().getName());
        }
    }

    @Override
    public void delete(HasMetadata object) {
        client.resource(object).delete();
        if (object instanceof Node n) {
            nodes.remove(n.getMetadata().getName());
        }
    }

    @Override
    public int scheduled(String namespace) {
        return api.bindsIn(namespace);
    }

    @Override
    public int attempted(String namespace) {
        return ApiTarget.attempted(client, namespace);
    }

    @Override
    public double schedulerCpuSeconds() {
        return 0;
    }

    @Override
    public long liveHeapMiB() {
        return -1;
    }

    @Override
    public long peakRssMiB() {
        return -1;
    }

    @Override
    public void close() {
        pending.close();
        binders.shutdownNow();
        client.close();
        api.close();
    }
}
