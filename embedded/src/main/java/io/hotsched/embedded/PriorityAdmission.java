package io.hotsched.embedded;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * kube-apiserver's Priority admission plugin: a new pod's {@code spec.priority} (and
 * {@code preemptionPolicy}) come from its PriorityClass, or from the {@code globalDefault} class
 * when it names none; a class that does not exist is refused with the plugin's Forbidden message.
 * The classes are kept here as they are written (so a create never scans the store for them),
 * with the two system classes every cluster has.
 *
 * <p>One difference: a pod that names no class but carries {@code spec.priority} keeps it (a real
 * server refuses it); the project's tests and scheduler_perf's templates create such pods.
 */
final class PriorityAdmission {

    record PriorityClass(int value, String preemptionPolicy, boolean globalDefault) {}

    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final Map<String, PriorityClass> SYSTEM = Map.of(
            "system-node-critical", new PriorityClass(2000001000, "PreemptLowerPriority", false),
            "system-cluster-critical", new PriorityClass(2000000000, "PreemptLowerPriority", false));

    private final Map<String, PriorityClass> classes = new ConcurrentHashMap<>(SYSTEM);

    /** Notes a write to the store: {@code json} is the class as stored, null when it was deleted. */
    void written(String name, String json) {
        if (json == null) {
            if (!SYSTEM.containsKey(name)) {
                classes.remove(name);
            }
            return;
        }
        JsonNode pc = JSON.readTree(json);
        classes.put(
                pc.path("metadata").path("name").asText(name),
                new PriorityClass(
                        pc.path("value").asInt(0),
                        pc.path("preemptionPolicy").asText("PreemptLowerPriority"),
                        pc.path("globalDefault").asBoolean(false)));
    }

    /** Whether a store path is one of PriorityClasses. */
    static boolean isPriorityClassPath(String path) {
        return path != null && path.startsWith("/apis/scheduling.k8s.io/") && path.contains("/priorityclasses");
    }

    void clear() {
        classes.clear();
        classes.putAll(SYSTEM);
    }

    /** Sets the pod's priority from its class; the Forbidden message when it may not be created, else null. */
    String admit(ObjectNode pod) {
        ObjectNode spec = pod.withObject("spec");
        String className = spec.path("priorityClassName").asText("");
        PriorityClass pc;
        if (className.isEmpty()) {
            Map.Entry<String, PriorityClass> byDefault = globalDefault();
            if (byDefault == null) {
                if (!spec.has("priority")) {
                    spec.put("priority", 0);
                }
                putIfAbsent(spec, "preemptionPolicy", "PreemptLowerPriority");
                return null;
            }
            className = byDefault.getKey();
            pc = byDefault.getValue();
            spec.put("priorityClassName", className);
        } else {
            pc = classes.get(className);
            if (pc == null) {
                return forbidden(pod, "no PriorityClass with name " + className + " was found");
            }
        }
        JsonNode given = spec.get("priority");
        if (given != null && !given.isNull() && given.asInt() != pc.value()) {
            return forbidden(
                    pod,
                    "the integer value of priority (" + given.asInt()
                            + ") must not be provided in pod spec; priority admission controller computed "
                            + pc.value() + " from the given PriorityClass name");
        }
        String policy = spec.path("preemptionPolicy").asText("");
        if (!policy.isEmpty() && !policy.equals(pc.preemptionPolicy())) {
            return forbidden(
                    pod,
                    "the string value of PreemptionPolicy (" + policy
                            + ") must not be provided in pod spec; priority admission controller computed "
                            + pc.preemptionPolicy() + " from the given PriorityClass name");
        }
        spec.put("priority", pc.value());
        spec.put("preemptionPolicy", pc.preemptionPolicy());
        return null;
    }

    private Map.Entry<String, PriorityClass> globalDefault() {
        Map.Entry<String, PriorityClass> lowest = null;
        for (Map.Entry<String, PriorityClass> e : classes.entrySet()) {
            // with several global defaults, the plugin takes the lowest value
            if (e.getValue().globalDefault()
                    && (lowest == null
                            || e.getValue().value() < lowest.getValue().value())) {
                lowest = e;
            }
        }
        return lowest;
    }

    private static String forbidden(ObjectNode pod, String why) {
        return "pods \"" + pod.path("metadata").path("name").asText("") + "\" is forbidden: " + why;
    }

    private static void putIfAbsent(ObjectNode o, String field, String value) {
        if (o.path(field).asText("").isEmpty()) {
            o.put(field, value);
        }
    }
}
