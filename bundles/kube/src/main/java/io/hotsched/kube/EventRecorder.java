package io.hotsched.kube;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hotsched.api.framework.ClusterException;
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
        Seen before;
        Seen next;
        synchronized (seen) {
            Seen s = seen.get(key);
            before = s != null && now - s.first() <= WINDOW_MILLIS ? s : null;
            next = before == null
                    ? new Seen(
                            pod.getMetadata().getName() + "." + Long.toHexString(now)
                                    + Integer.toHexString(key.hashCode() & 0xfff),
                            1,
                            now)
                    : new Seen(before.name(), before.count() + 1, before.first());
            seen.put(key, next);
        }
        limiter.acquire();
        String what = "recording event " + reason + " for " + KubeBackend.key(pod);
        try {
            // retried as the scheduler's other writes are, by the one retry that honours Retry-After
            KubeBackend.retrying(
                    what,
                    false,
                    () -> before == null
                            ? create(ns, next.name(), type, reason, message, pod, now)
                            : bump(ns, next, now));
        } catch (ClusterException e) {
            LOG.debug("Could not record event {} for {}: {}", reason, KubeBackend.key(pod), e.getMessage());
            if (before == null && e.code() != 409) {
                // never created: the next occurrence creates it rather than bumping an event that is not there
                synchronized (seen) {
                    seen.remove(key, next);
                }
            }
        }
    }

    private Event create(String ns, String name, String type, String reason, String message, Pod pod, long now) {
        String at = Instant.ofEpochMilli(now).toString();
        Event e = CoreEvents.firstOccurrence(ns, name, type, reason, message, at)
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
        return client.v1().events().inNamespace(ns).resource(e).create();
    }

    private Event bump(String ns, Seen next, long now) {
        return client.v1().events().inNamespace(ns).withName(next.name()).edit(e -> {
            e.setCount(next.count());
            e.setLastTimestamp(Instant.ofEpochMilli(now).toString());
            return e;
        });
    }
}
