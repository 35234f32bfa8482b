package io.hotsched.kube.delivery;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.hotsched.kube.CoreEvents;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Events about SchedulerPlugin objects (cluster-scoped, so in namespace {@code default}, as
 * kube-apiserver's own components record them): each install, upgrade, refusal and removal,
 * which {@code kubectl describe schedulerplugin} lists.
 */
final class DeliveryEvents {

    private static final Logger LOG = LoggerFactory.getLogger(DeliveryEvents.class);
    private static final String NAMESPACE = "default";
    private static final AtomicLong SEQUENCE = new AtomicLong();

    private final KubernetesClient client;
    private final String component;
    private final String replica;

    DeliveryEvents(KubernetesClient client, String component, String replica) {
        this.client = client;
        this.component = component;
        this.replica = replica;
    }

    void normal(GenericKubernetesResource about, String reason, String message) {
        record(about, "Normal", reason, message);
    }

    void warning(GenericKubernetesResource about, String reason, String message) {
        record(about, "Warning", reason, message);
    }

    private void record(GenericKubernetesResource about, String type, String reason, String message) {
        String now = Instant.now().toString();
        String name = about.getMetadata().getName() + "." + Long.toHexString(System.currentTimeMillis())
                + Long.toHexString(SEQUENCE.incrementAndGet());
        try {
            client.v1()
                    .events()
                    .inNamespace(NAMESPACE)
                    .resource(CoreEvents.firstOccurrence(NAMESPACE, name, type, reason, message, now)
                            .withNewInvolvedObject()
                            .withApiVersion(PluginDelivery.API_VERSION)
                            .withKind(PluginDelivery.KIND)
                            .withName(about.getMetadata().getName())
                            .withUid(about.getMetadata().getUid())
                            .endInvolvedObject()
                            .withNewSource()
                            .withComponent(component)
                            .withHost(replica)
                            .endSource()
                            .withReportingComponent(component)
                            .withReportingInstance(replica)
                            .build())
                    .create();
        } catch (KubernetesClientException e) {
            LOG.warn(
                    "Could not record event {} for SchedulerPlugin {}: {}",
                    reason,
                    about.getMetadata().getName(),
                    e.getMessage());
        }
    }
}
