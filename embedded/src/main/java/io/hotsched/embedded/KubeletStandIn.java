package io.hotsched.embedded;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.time.Instant;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Plays the kubelet for the embedded cluster: a pod that gets a node becomes Running. Nothing
 * runs, of course; it only makes {@code kubectl get pods} read like a cluster.
 */
final class KubeletStandIn implements AutoCloseable {

    private final KubernetesClient client;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "embedded-kubelet");
        t.setDaemon(true);
        return t;
    });
    private Watch watch;

    KubeletStandIn(KubernetesClient client) {
        this.client = client;
    }

    void start() {
        for (Pod p : client.pods().inAnyNamespace().list().getItems()) {
            maybeRun(p);
        }
        watch = client.pods().inAnyNamespace().watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, Pod pod) {
                if (action == Action.ADDED || action == Action.MODIFIED) {
                    maybeRun(pod);
                }
            }

            @Override
            public void onClose(WatcherException cause) {
                // the server is going away
            }
        });
    }

    private void maybeRun(Pod pod) {
        String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        if (node == null || node.isEmpty() || !(phase == null || "Pending".equals(phase))) {
            return;
        }
        worker.execute(() -> {
            try {
                client.pods()
                        .inNamespace(pod.getMetadata().getNamespace())
                        .withName(pod.getMetadata().getName())
                        .editStatus(p -> {
                            if (p.getStatus() == null) {
                                p.setStatus(new io.fabric8.kubernetes.api.model.PodStatus());
                            }
                            if (p.getStatus().getConditions() == null) {
                                p.getStatus().setConditions(new java.util.ArrayList<>());
                            }
                            p.getStatus().setPhase("Running");
                            p.getStatus().setStartTime(Instant.now().toString());
                            p.getStatus().getConditions().removeIf(c -> "PodScheduled".equals(c.getType()));
                            p.getStatus()
                                    .getConditions()
                                    .add(new PodConditionBuilder()
                                            .withType("PodScheduled")
                                            .withStatus("True")
                                            .build());
                            p.getStatus()
                                    .getConditions()
                                    .add(new PodConditionBuilder()
                                            .withType("Ready")
                                            .withStatus("True")
                                            .build());
                            return p;
                        });
            } catch (RuntimeException e) {
                // deleted meanwhile, or already updated: the next event says
            }
        });
    }

    @Override
    public void close() {
        if (watch != null) {
            watch.close();
        }
        worker.shutdownNow();
    }
}
