package io.hotsched.embedded;

import io.fabric8.mockwebserver.http.MockResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The eviction subresource ({@code POST pods/NAME/eviction}, what kubectl drain sends), with
 * kube-apiserver's rules: a pod that is Pending, finished or terminating is deleted at once; else
 * the PodDisruptionBudget that selects it must allow a disruption: its status (kept by the
 * disruption controller stand-in) is then decremented and the pod recorded in
 * {@code disruptedPods} before the pod is deleted; a budget its controller has not seen yet, or
 * one that allows none, is a 429 {@code TooManyRequests} naming it; more than one budget is a 500.
 * A pod that is not Ready may go when the budget says {@code AlwaysAllow} or is healthy anyway.
 * {@code dryRun} checks without writing.
 */
final class Evictions {

    static final Pattern EVICTION = Pattern.compile("/api/v1/namespaces/([^/]+)/pods/([^/]+)/eviction/?(\\?.*)?");

    private static final String REFUSED = "Cannot evict pod as it would violate the pod's disruption budget.";
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    /** The store, as the eviction reads and writes it. */
    interface Store {
        MockResponse get(String path);

        /** A PUT of {@code body} (which carries the resourceVersion it was read at) to {@code path}. */
        MockResponse put(String path, String body);

        MockResponse delete(String path);
    }

    private final Store store;

    Evictions(Store store) {
        this.store = store;
    }

    /** The answer to an eviction with body {@code body}, or null when {@code path} is not one. */
    synchronized MockResponse evict(String path, String body) {
        Matcher m = EVICTION.matcher(path);
        if (!m.matches()) {
            return null;
        }
        String namespace = m.group(1);
        String name = m.group(2);
        String podPath = "/api/v1/namespaces/" + namespace + "/pods/" + name;
        JsonNode pod = read(store.get(podPath));
        if (pod == null) {
            return StatusJson.failure(404, "NotFound", "pods \"" + name + "\" not found");
        }
        boolean dryRun = dryRun(path, body);
        if (!canIgnoreBudgets(pod)) {
            MockResponse refused = guard(namespace, pod, dryRun);
            if (refused != null) {
                return refused;
            }
        }
        if (dryRun) {
            return StatusJson.created();
        }
        MockResponse deleted = store.delete(podPath);
        if (deleted.code() == 404) {
            return StatusJson.failure(404, "NotFound", "pods \"" + name + "\" not found");
        }
        return deleted.code() >= 300 ? deleted : StatusJson.created();
    }

    /** Null when the pod may go (its budget, if any, decremented unless a dry run), else the refusal. */
    private MockResponse guard(String namespace, JsonNode pod, boolean dryRun) {
        List<ObjectNode> budgets = budgetsOf(namespace, pod);
        if (budgets.isEmpty()) {
            return null;
        }
        if (budgets.size() > 1) {
            return StatusJson.failure(
                    500,
                    "InternalError",
                    "Internal error occurred: This pod has more than one PodDisruptionBudget, which the eviction"
                            + " subresource does not support.");
        }
        ObjectNode pdb = budgets.get(0);
        String pdbName = pdb.path("metadata").path("name").asText();
        JsonNode status = pdb.path("status");
        if (!ready(pod)) {
            if ("AlwaysAllow"
                    .equals(pdb.path("spec").path("unhealthyPodEvictionPolicy").asText(""))) {
                return null;
            }
            long desired = status.path("desiredHealthy").asLong(0);
            if (status.path("currentHealthy").asLong(0) >= desired && desired > 0) {
                return null;
            }
        }
        if (status.path("observedGeneration").asLong(0)
                < pdb.path("metadata").path("generation").asLong(0)) {
            return stillProcessing(pdbName);
        }
        long allowed = status.path("disruptionsAllowed").asLong(0);
        if (allowed < 0) {
            return StatusJson.failure(
                    403,
                    "Forbidden",
                    "poddisruptionbudgets.policy \"" + pdbName
                            + "\" is forbidden: pdb disruptions allowed is negative");
        }
        if (allowed == 0) {
            return tooManyRequests(deniedMessage(pdbName, status), 0);
        }
        if (dryRun) {
            return null;
        }
        ObjectNode s = pdb.withObject("status");
        s.put("disruptionsAllowed", allowed - 1);
        s.withObject("disruptedPods")
                .put(
                        pod.path("metadata").path("name").asText(),
                        Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        if (allowed - 1 == 0) {
            for (JsonNode c : s.path("conditions")) {
                if (c instanceof ObjectNode condition
                        && "DisruptionAllowed".equals(c.path("type").asText())) {
                    condition.put("status", "False").put("reason", "InsufficientPods");
                }
            }
        }
        MockResponse written = store.put(
                "/apis/policy/v1/namespaces/" + namespace + "/poddisruptionbudgets/" + pdbName + "/status",
                JSON.writeValueAsString(pdb));
        if (written.code() == 409) {
            // the disruption controller wrote in between: as kube-apiserver after its retries
            return stillProcessing(pdbName);
        }
        return written.code() >= 300 ? written : null;
    }

    private static String deniedMessage(String pdbName, JsonNode status) {
        JsonNode condition = null;
        for (JsonNode c : status.path("conditions")) {
            if ("DisruptionAllowed".equals(c.path("type").asText())) {
                condition = c;
            }
        }
        boolean failedFalse = condition != null
                && "False".equals(condition.path("status").asText())
                && !condition.path("message").asText("").isEmpty();
        if (failedFalse && "SyncFailed".equals(condition.path("reason").asText())) {
            return "The disruption budget " + pdbName
                    + " does not allow evicting pods currently because it failed sync: "
                    + condition.path("message").asText();
        }
        long current = status.path("currentHealthy").asLong(0);
        long desired = status.path("desiredHealthy").asLong(0);
        if (current <= desired) {
            return "The disruption budget " + pdbName + " needs " + desired + " healthy pods and has " + current
                    + " currently";
        }
        if (failedFalse) {
            return "The disruption budget " + pdbName + " does not allow evicting pods currently ("
                    + condition.path("reason").asText() + "): "
                    + condition.path("message").asText();
        }
        return "The disruption budget " + pdbName + " does not allow evicting pods currently";
    }

    /** A refusal of a budget still being processed says when to retry (client-go waits that long); a full one does not. */
    private static MockResponse stillProcessing(String pdbName) {
        return tooManyRequests("The disruption budget " + pdbName + " is still being processed by the server.", 10);
    }

    private static MockResponse tooManyRequests(String cause, int retryAfterSeconds) {
        ObjectNode status = JSON.createObjectNode();
        status.put("kind", "Status").put("apiVersion", "v1");
        status.putObject("metadata");
        status.put("status", "Failure").put("message", REFUSED).put("reason", "TooManyRequests");
        ObjectNode details = status.putObject("details");
        details.putArray("causes").addObject().put("reason", "DisruptionBudget").put("message", cause);
        status.put("code", 429);
        MockResponse r = new MockResponse().setResponseCode(429).setHeader("Content-Type", "application/json");
        if (retryAfterSeconds > 0) {
            details.put("retryAfterSeconds", retryAfterSeconds);
            r.setHeader("Retry-After", String.valueOf(retryAfterSeconds));
        }
        return r.setBody(JSON.writeValueAsString(status));
    }

    /** The budgets of {@code namespace} whose selector selects the pod (a budget without selector selects none). */
    private List<ObjectNode> budgetsOf(String namespace, JsonNode pod) {
        JsonNode list = read(store.get("/apis/policy/v1/namespaces/" + namespace + "/poddisruptionbudgets"));
        List<ObjectNode> out = new ArrayList<>();
        if (list == null) {
            return out;
        }
        JsonNode labels = pod.path("metadata").path("labels");
        for (JsonNode b : list.path("items")) {
            JsonNode selector = b.path("spec").path("selector");
            if (b instanceof ObjectNode budget && selector.isObject() && selects(selector, labels)) {
                out.add(budget);
            }
        }
        return out;
    }

    static boolean selects(JsonNode selector, JsonNode labels) {
        for (Map.Entry<String, JsonNode> e : selector.path("matchLabels").properties()) {
            if (!e.getValue().asText().equals(labels.path(e.getKey()).asText(null))) {
                return false;
            }
        }
        for (JsonNode r : selector.path("matchExpressions")) {
            String value = labels.has(r.path("key").asText())
                    ? labels.path(r.path("key").asText()).asText()
                    : null;
            List<String> values = new ArrayList<>();
            r.path("values").forEach(v -> values.add(v.asText()));
            boolean holds = switch (r.path("operator").asText()) {
                case "In" -> value != null && values.contains(value);
                case "NotIn" -> value == null || !values.contains(value);
                case "Exists" -> value != null;
                case "DoesNotExist" -> value == null;
                default -> false;
            };
            if (!holds) {
                return false;
            }
        }
        return true;
    }

    /** Pending, finished or already terminating: no budget protects it. */
    private static boolean canIgnoreBudgets(JsonNode pod) {
        String phase = pod.path("status").path("phase").asText("");
        return phase.equals("Pending")
                || phase.equals("Succeeded")
                || phase.equals("Failed")
                || !pod.path("metadata").path("deletionTimestamp").asText("").isEmpty();
    }

    private static boolean ready(JsonNode pod) {
        for (JsonNode c : pod.path("status").path("conditions")) {
            if ("Ready".equals(c.path("type").asText())) {
                return "True".equals(c.path("status").asText());
            }
        }
        return false;
    }

    private static boolean dryRun(String path, String body) {
        if (path.contains("dryRun=All")) {
            return true;
        }
        JsonNode eviction = parse(body);
        if (eviction == null) {
            return false;
        }
        for (JsonNode d : eviction.path("deleteOptions").path("dryRun")) {
            if ("All".equals(d.asText())) {
                return true;
            }
        }
        return false;
    }

    private static JsonNode read(MockResponse r) {
        if (r == null || r.code() != 200 || r.getBody() == null) {
            return null;
        }
        return parse(new String(r.getBody().getBytes(), StandardCharsets.UTF_8));
    }

    private static JsonNode parse(String s) {
        try {
            return s == null || s.isEmpty() ? null : JSON.readTree(s);
        } catch (RuntimeException e) {
            return null;
        }
    }
}
