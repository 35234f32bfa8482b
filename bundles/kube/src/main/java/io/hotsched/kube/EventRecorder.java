package io.hotsched.kube;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records core/v1 events, aggregated as the Kubernetes event correlator does: the same reason and
 * message about the same pod within ten minutes bumps the count of one event instead of creating
 * another, so a pod retried every few seconds does not flood the namespace.
 */
final class EventRecorder {

    private static final Logger LOG = LoggerFactory.getLogger(EventRecorder.class);
    private static final long WINDOW_MILLIS = 10 * 60 * 1000;
    private static final int MAX_TRACKED = 4096;

    private record Seen(String name, int count, long first) {}

    private final KubernetesClient client;
    private final String component;
    private final RateLimiter limiter;
    private final Map<String, Seen> seen = new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Seen> eldest) {
            return size() > MAX_TRACKED;
        }
    };

    EventRecorder(KubernetesClient client, String component, RateLimiter limiter) {
        this.client = client;
        this.component = component;
        this.limiter = limiter;
    }

    void record(Pod pod, String type, String reason, String message) {
        String ns = KubeBackend.namespace(pod);
        String key = pod.getMetadata().getUid() + "|" + reason + "|" + message;
        long now = System.currentTimeMillis();
        Seen s;
        synchronized (seen) {
            s = seen.get(key);
            if (s != null && now - s.first() > WINDOW_MILLIS) {
                s = null;
            }
            seen.put(
                    key,
                    s == null
                            ? new Seen(
                                    pod.getMetadata().getName() + "." + Long.toHexString(now)
                                            + Integer.toHexString(key.hashCode() & 0xfff),
                                    1,
                                    now)
                            : new Seen(s.name(), s.count() + 1, s.first()));
        }
        limiter.acquire();
        try {
            if (s == null) {
                Event e = new EventBuilder()
                        .withNewMetadata()
                        .withNamespace(ns)
                        .withName(seen.get(key).name())
                        .endMetadata()
                        .withType(type)
                        .withReason(reason)
                        .withMessage(message)
                        .withCount(1)
                        .withFirstTimestamp(Instant.ofEpochMilli(now).toString())
                        .withLastTimestamp(Instant.ofEpochMilli(now).toString())
                        .withNewInvolvedObject()
                        .withKind("Pod")
                        .withApiVersion("v1")
                        .withNamespace(ns)
                        .withName(pod.getMetadata().getName())
                        .withUid(pod.getMetadata().getUid())
                        .endInvolvedObject()
                        .withNewSource()
                        .withComponent(component)
                        .endSource()
                        .withReportingComponent(component)
                        .build();
                client.v1().events().inNamespace(ns).resource(e).create();
            } else {
                int count = s.count() + 1;
                client.v1().events().inNamespace(ns).withName(s.name()).edit(e -> {
                    e.setCount(count);
                    e.setLastTimestamp(Instant.ofEpochMilli(now).toString());
                    return e;
                });
            }
        } catch (KubernetesClientException e) {
            LOG.debug("Could not record event {} for {}: {}", reason, KubeBackend.key(pod), e.getMessage());
        }
    }
}
