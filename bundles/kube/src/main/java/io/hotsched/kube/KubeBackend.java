package io.hotsched.kube;

import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.RequestConfig;
import io.fabric8.kubernetes.client.RequestConfigBuilder;
import io.fabric8.kubernetes.client.dsl.PodResource;
import io.hotsched.api.cluster.ClusterBackend;
import io.hotsched.api.framework.ClusterException;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The scheduler's writes to the API server. Conflicts on status updates, 429 and 5xx answers and
 * requests that got no answer are retried with backoff; a bind answered 409 (already bound) or 404 (gone) is not, and the
 * scheduler decides what that means. Only this class retries a write: its requests go through a
 * client without fabric8's own request retries, which would otherwise send each of these attempts
 * up to 11 times. A refusal carrying {@code Retry-After} reaches this class only after those
 * seconds ({@link RetryAfter}, on the client), and the backoff comes on top.
 */
final class KubeBackend implements ClusterBackend {

    static final int ATTEMPTS = 4;

    private final KubernetesClient client;
    private final EventRecorder events;
    private final RateLimiter limiter;
    /** Whether this replica may write: with --leader-elect, while it holds the lease. */
    private volatile BooleanSupplier mayWrite = () -> true;

    KubeBackend(KubernetesClient client, String component) {
        this(client, component, 0, 0);
    }

    /** @param qps writes a second on average (0: no limit), with bursts of up to {@code burst} */
    KubeBackend(KubernetesClient client, String component, double qps, int burst) {
        this.client = withoutRequestRetries(client);
        this.limiter = new RateLimiter(qps, burst);
        this.events = new EventRecorder(this.client, component, limiter);
    }

    /** {@code client} (its connections, interceptors and time-outs) with each request sent once. */
    static KubernetesClient withoutRequestRetries(KubernetesClient client) {
        RequestConfig once = new RequestConfigBuilder(client.getConfiguration().getRequestConfig())
                .withRequestRetryBackoffLimit(0)
                .build();
        return client.newClient(once).adapt(KubernetesClient.class);
    }

    /** Writes only while {@code holdsLease} says so (a replica behind a lease). */
    void writeOnlyWhile(BooleanSupplier holdsLease) {
        this.mayWrite = holdsLease;
    }

    /** Refuses a write of a replica that does not hold the lease (checked as late as can be, per attempt). */
    private void mayWrite(String what) {
        if (!mayWrite.getAsBoolean()) {
            throw new ClusterException(what + ": this replica does not hold the leader lease", 0);
        }
    }

    @Override
    public void bind(Pod pod, String nodeName) {
        Binding b = new BindingBuilder()
                .withNewMetadata()
                .withName(pod.getMetadata().getName())
                .withNamespace(namespace(pod))
                .withUid(pod.getMetadata().getUid())
                .endMetadata()
                .withNewTarget()
                .withKind("Node")
                .withApiVersion("v1")
                .withName(nodeName)
                .endTarget()
                .build();
        limiter.acquire();
        String what = "binding pod " + key(pod) + " to " + nodeName;
        retrying(what, false, () -> {
            mayWrite(what);
            return client.bindings().inNamespace(namespace(pod)).resource(b).create();
        });
    }

    @Override
    public void patchPod(Pod pod, UnaryOperator<Pod> change) {
        onPod(pod, "patching pod " + key(pod), true, r -> r.edit(change));
    }

    @Override
    public void patchPodStatus(Pod pod, UnaryOperator<Pod> change) {
        onPod(pod, "updating the status of pod " + key(pod), true, r -> r.editStatus(change));
    }

    @Override
    public <T extends HasMetadata> T update(T object) {
        limiter.acquire();
        String what =
                "updating " + object.getKind() + " " + object.getMetadata().getName();
        // a conflict means the object moved on: the caller decides again from the new version
        return retrying(what, false, () -> {
            mayWrite(what);
            return client.resource(object).update();
        });
    }

    @Override
    public <T extends HasMetadata> T updateStatus(T object) {
        limiter.acquire();
        String what = "updating the status of " + object.getKind() + " "
                + object.getMetadata().getName();
        return retrying(what, false, () -> client.resource(object).updateStatus());
    }

    @Override
    public void deletePod(Pod pod) {
        onPod(pod, "deleting pod " + key(pod), false, PodResource::delete);
    }

    @Override
    public void recordEvent(Pod pod, String type, String reason, String message) {
        events.record(pod, type, reason, message);
    }

    @Override
    public void markUnschedulable(Pod pod, String reason, String message, String nominatedNodeName) {
        onPod(
                pod,
                "updating the PodScheduled condition of " + key(pod),
                true,
                r -> r.editStatus(p -> unschedulable(p, reason, message, nominatedNodeName)));
    }

    /** One write to the pod's API object, within the client's rate limit and retried as {@link #retrying} says. */
    private <T> T onPod(Pod pod, String what, boolean retryConflicts, Function<PodResource, T> write) {
        limiter.acquire();
        return retrying(what, retryConflicts, () -> {
            mayWrite(what);
            return write.apply(client.pods()
                    .inNamespace(namespace(pod))
                    .withName(pod.getMetadata().getName()));
        });
    }

    /**
     * The pod with condition PodScheduled=False for {@code reason} and {@code message} (its
     * transition time kept when they are unchanged) and, unless null, the nominated node (empty:
     * cleared).
     */
    private static Pod unschedulable(Pod p, String reason, String message, String nominatedNodeName) {
        PodStatus s = p.getStatus() == null ? new PodStatus() : p.getStatus();
        List<PodCondition> conditions =
                s.getConditions() == null ? new ArrayList<>() : new ArrayList<>(s.getConditions());
        PodCondition old = conditions.stream()
                .filter(c -> "PodScheduled".equals(c.getType()))
                .findFirst()
                .orElse(null);
        boolean same = old != null
                && "False".equals(old.getStatus())
                && reason.equals(old.getReason())
                && message.equals(old.getMessage());
        if (!same) {
            conditions.remove(old);
            conditions.add(new PodConditionBuilder()
                    .withType("PodScheduled")
                    .withStatus("False")
                    .withReason(reason)
                    .withMessage(message)
                    .withLastTransitionTime(Instant.now().toString())
                    .build());
        }
        s.setConditions(conditions);
        if (nominatedNodeName != null) {
            s.setNominatedNodeName(nominatedNodeName.isEmpty() ? null : nominatedNodeName);
        }
        p.setStatus(s);
        return p;
    }

    /** Runs {@code call}, retrying what an API server says may work later. */
    static <T> T retrying(String what, boolean retryConflicts, Supplier<T> call) {
        long backoff = 100;
        for (int attempt = 1; ; attempt++) {
            try {
                return call.get();
            } catch (KubernetesClientException e) {
                int code = e.getCode();
                // fabric8 gives a request that got no answer (refused, reset, timed out) the code -1, as it does a
                // mistake of the client's own, which another try would repeat
                boolean noAnswer = code <= 0 && fromIo(e);
                boolean transientFailure = code == 429 || code >= 500 || noAnswer || retryConflicts && code == 409;
                if (!transientFailure || attempt >= ATTEMPTS) {
                    throw new ClusterException(what + ": " + message(e), code, e);
                }
            }
            try {
                Thread.sleep(backoff);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                throw new ClusterException(what + ": interrupted", 0);
            }
            backoff *= 4;
        }
    }

    private static boolean fromIo(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof IOException) {
                return true;
            }
        }
        return false;
    }

    private static String message(KubernetesClientException e) {
        return e.getStatus() != null && e.getStatus().getMessage() != null
                ? e.getStatus().getMessage()
                : String.valueOf(e.getMessage());
    }

    static String namespace(Pod pod) {
        String ns = pod.getMetadata().getNamespace();
        return ns == null || ns.isEmpty() ? "default" : ns;
    }

    static String key(Pod pod) {
        return namespace(pod) + "/" + pod.getMetadata().getName();
    }
}
