package io.hotsched.embedded;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The defaults kube-apiserver gives a new pod before it is stored (the v1 defaulting functions and
 * the DefaultTolerationSeconds admission plugin), so that what the scheduler reads is what a real
 * cluster would hand it, and the pod strategy's condition on a pod created with scheduling gates.
 * The PriorityClass is {@link PriorityAdmission}'s.
 */
final class PodDefaults {

    /** DefaultTolerationSeconds: a pod stays 300 s on a node that is not ready or unreachable. */
    static final long DEFAULT_TOLERATION_SECONDS = 300;

    private PodDefaults() {}

    static void apply(ObjectNode pod) {
        ObjectNode spec = pod.withObject("spec");
        putIfAbsent(spec, "dnsPolicy", "ClusterFirst");
        putIfAbsent(spec, "restartPolicy", "Always");
        if (!spec.has("securityContext")) {
            spec.putObject("securityContext");
        }
        if (!spec.has("terminationGracePeriodSeconds")) {
            spec.put("terminationGracePeriodSeconds", 30L);
        }
        putIfAbsent(spec, "schedulerName", "default-scheduler");
        if (!spec.has("enableServiceLinks")) {
            spec.put("enableServiceLinks", true);
        }
        for (String list : new String[] {"initContainers", "containers"}) {
            for (JsonNode c : spec.path(list)) {
                if (c instanceof ObjectNode container) {
                    container(container);
                }
            }
        }
        tolerate(spec, "node.kubernetes.io/not-ready");
        tolerate(spec, "node.kubernetes.io/unreachable");
        ObjectNode status = pod.withObject("status");
        putIfAbsent(status, "phase", "Pending");
        schedulingGated(spec, status);
    }

    /**
     * A pod created with scheduling gates is told why it waits before any scheduler sees it, as
     * kube-apiserver's pod strategy does; a condition the creator already set of that type stays.
     */
    private static void schedulingGated(ObjectNode spec, ObjectNode status) {
        if (spec.path("schedulingGates").isEmpty()) {
            return;
        }
        for (JsonNode c : status.path("conditions")) {
            if (c.path("type").asText("").equals("PodScheduled")) {
                return;
            }
        }
        ObjectNode condition = status.withArray("conditions").addObject();
        condition.put("type", "PodScheduled");
        condition.put("status", "False");
        condition.putNull("lastProbeTime");
        condition.put(
                "lastTransitionTime",
                java.time.OffsetDateTime.now(java.time.ZoneOffset.UTC)
                        .truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
                        .toString());
        condition.put("reason", "SchedulingGated");
        condition.put("message", "Scheduling is blocked due to non-empty scheduling gates");
    }

    private static void container(ObjectNode c) {
        putIfAbsent(c, "terminationMessagePath", "/dev/termination-log");
        putIfAbsent(c, "terminationMessagePolicy", "File");
        putIfAbsent(c, "imagePullPolicy", pullPolicy(c.path("image").asText("")));
        for (JsonNode port : c.path("ports")) {
            if (port instanceof ObjectNode p) {
                putIfAbsent(p, "protocol", "TCP");
            }
        }
        // limits without requests: the requests are the limits (what the scheduler then counts)
        JsonNode limits = c.path("resources").path("limits");
        if (limits.isObject() && !limits.isEmpty()) {
            ObjectNode requests = c.withObject("resources").withObject("requests");
            for (String resource : limits.propertyNames()) {
                if (!requests.has(resource)) {
                    requests.set(resource, limits.get(resource));
                }
            }
        }
    }

    /** Always for an image without a tag or tagged latest, else IfNotPresent (a digest counts as a tag). */
    static String pullPolicy(String image) {
        if (image.contains("@")) {
            return "IfNotPresent";
        }
        int slash = image.lastIndexOf('/');
        int colon = image.lastIndexOf(':');
        if (colon <= slash) {
            return "Always";
        }
        return image.substring(colon + 1).equals("latest") ? "Always" : "IfNotPresent";
    }

    /** Adds the NoExecute toleration of {@code key} for 300 s unless the pod already tolerates that taint. */
    private static void tolerate(ObjectNode spec, String key) {
        for (JsonNode t : spec.path("tolerations")) {
            String k = t.path("key").asText("");
            String effect = t.path("effect").asText("");
            if ((k.isEmpty() || k.equals(key)) && (effect.isEmpty() || effect.equals("NoExecute"))) {
                return;
            }
        }
        ArrayNode tolerations = spec.withArray("tolerations");
        ObjectNode t = tolerations.addObject();
        t.put("key", key);
        t.put("operator", "Exists");
        t.put("effect", "NoExecute");
        t.put("tolerationSeconds", DEFAULT_TOLERATION_SECONDS);
    }

    private static void putIfAbsent(ObjectNode o, String field, String value) {
        if (o.path(field).asText("").isEmpty()) {
            o.put(field, value);
        }
    }
}
