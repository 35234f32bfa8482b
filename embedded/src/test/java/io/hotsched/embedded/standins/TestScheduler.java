package io.hotsched.embedded.standins;

import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;

/**
 * Plays the scheduler in the stand-ins' tests: binds each unbound pod of a namespace (a DaemonSet's
 * to the node its affinity names, others to {@code node}), so that the kubelet stand-in runs it.
 */
public final class TestScheduler implements AutoCloseable {

    private final Watch watch;

    public TestScheduler(KubernetesClient client, String namespace, String node) {
        watch = client.pods().inNamespace(namespace).watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, Pod pod) {
                if (action == Action.DELETED || PodStates.assigned(pod)) {
                    return;
                }
                String target = DaemonSetStandIn.targetNode(pod);
                try {
                    client.bindings()
                            .inNamespace(namespace)
                            .resource(new BindingBuilder()
                                    .withNewMetadata()
                                    .withName(pod.getMetadata().getName())
                                    .endMetadata()
                                    .withNewTarget()
                                    .withKind("Node")
                                    .withName(target.isEmpty() ? node : target)
                                    .endTarget()
                                    .build())
                            .create();
                } catch (KubernetesClientException e) {
                    // bound meanwhile (409) or deleted (404)
                }
            }

            @Override
            public void onClose(WatcherException cause) {}
        });
    }

    @Override
    public void close() {
        watch.close();
    }
}
