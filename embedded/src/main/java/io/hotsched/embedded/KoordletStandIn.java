package io.hotsched.embedded;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

/**
 * Reports NodeMetrics as Koordinator's koordlet would: every report interval, each NodeMetric's
 * {@code status.updateTime} becomes now, keeping the usage it was seeded with. Without it a seeded
 * metric ages past LoadAwareScheduling's expiry and the plugin stops deciding.
 */
final class KoordletStandIn {

    static final String API_VERSION = "slo.koordinator.sh/v1alpha1";

    private final KubernetesClient client;
    private final Clock clock;

    KoordletStandIn(KubernetesClient client, Clock clock) {
        this.client = client;
        this.clock = clock;
    }

    /** Marks every NodeMetric as reported now; returns how many there were. */
    @SuppressWarnings("unchecked")
    int report() {
        int n = 0;
        for (GenericKubernetesResource m : client.genericKubernetesResources(API_VERSION, "NodeMetric")
                .list()
                .getItems()) {
            Object s = m.getAdditionalProperties().get("status");
            Map<String, Object> status =
                    s instanceof Map<?, ?> map ? new HashMap<>((Map<String, Object>) map) : new HashMap<>();
            status.put("updateTime", clock.instant().toString());
            m.setAdditionalProperty("status", status);
            m.getMetadata().setResourceVersion(null);
            try {
                client.genericKubernetesResources(API_VERSION, "NodeMetric")
                        .resource(m)
                        .update();
                n++;
            } catch (RuntimeException e) {
                // deleted meanwhile: nothing to report for it
            }
        }
        return n;
    }
}
