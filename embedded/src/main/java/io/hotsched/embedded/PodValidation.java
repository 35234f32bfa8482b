package io.hotsched.embedded;

import io.hotsched.embedded.FieldErrors.Cause;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * kube-apiserver's pod rules that matter to a scheduler's users: containers (at least one, each
 * named as an RFC 1123 label, once, with an image), a supported restart policy, and on update
 * the immutable spec: only the container images, {@code activeDeadlineSeconds}, added tolerations,
 * removed scheduling gates (and, while gated, added node selectors and affinity) may change.
 * {@code spec.nodeName} may be set once by an update here, where kube-apiserver leaves that to the
 * binding subresource alone.
 */
final class PodValidation {

    static final String UPDATABLE = "pod updates may not change fields other than `spec.containers[*].image`,"
            + "`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to"
            + " existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was"
            + " previously negative)";

    private static final List<String> RESTART_POLICIES = List.of("Always", "OnFailure", "Never");

    private PodValidation() {}

    /**
     * Why kube-apiserver cannot decode {@code pod} at all, or null: a container's (or the pod's)
     * request or limit, or the pod's overhead, that is not a quantity fails its decoding with a
     * 400 naming neither the field nor the value (its words, kept).
     */
    static String undecodable(JsonNode pod) {
        JsonNode spec = pod.path("spec");
        boolean decodes = Quantities.allDecode(spec.path("overhead")) && resources(spec.path("resources"));
        for (String list : List.of("containers", "initContainers", "ephemeralContainers")) {
            for (JsonNode c : spec.path(list)) {
                decodes &= resources(c.path("resources"));
            }
        }
        return decodes ? null : "Pod in version \"v1\" cannot be handled as a Pod: " + Quantities.MESSAGE;
    }

    private static boolean resources(JsonNode r) {
        return Quantities.allDecode(r.path("requests")) && Quantities.allDecode(r.path("limits"));
    }

    static void check(JsonNode pod, JsonNode old, List<Cause> causes) {
        JsonNode spec = pod.path("spec");
        Set<String> names = new HashSet<>();
        JsonNode containers = spec.path("containers");
        if (containers.isEmpty()) {
            causes.add(FieldErrors.required("spec.containers", ""));
        } else {
            containers("spec.containers", containers, names, causes);
        }
        containers("spec.initContainers", spec.path("initContainers"), names, causes);
        String restart = spec.path("restartPolicy").asText("");
        if (!restart.isEmpty() && !RESTART_POLICIES.contains(restart)) {
            causes.add(FieldErrors.notSupported("spec.restartPolicy", restart, RESTART_POLICIES));
        }
        if (old == null) {
            PodPlacementValidation.check(spec, causes);
        } else {
            immutable(old.path("spec"), spec, causes);
        }
    }

    private static void containers(String path, JsonNode list, Set<String> names, List<Cause> causes) {
        for (int i = 0; i < list.size(); i++) {
            JsonNode c = list.get(i);
            String at = path + "[" + i + "]";
            String name = c.path("name").asText("");
            if (name.isEmpty()) {
                causes.add(FieldErrors.required(at + ".name", ""));
            } else {
                for (String m : Names.label(name)) {
                    causes.add(FieldErrors.invalid(at + ".name", name, m));
                }
            }
            if (c.path("image").asText("").isEmpty()) {
                causes.add(FieldErrors.required(at + ".image", ""));
            }
            if (!names.add(name) && !name.isEmpty()) {
                causes.add(FieldErrors.duplicate(at + ".name", name, ""));
            }
        }
    }

    /** The spec of an update against the stored one: what it may change is set back, the rest must be equal. */
    private static void immutable(JsonNode before, JsonNode after, List<Cause> causes) {
        ObjectNode munged = after.isObject()
                ? ((ObjectNode) after).deepCopy()
                : tools.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        images(before, munged, "containers");
        images(before, munged, "initContainers");
        keep(before, munged, "activeDeadlineSeconds");
        if (before.path("terminationGracePeriodSeconds").asLong(0) < 0
                && after.path("terminationGracePeriodSeconds").asLong(0) == 1) {
            keep(before, munged, "terminationGracePeriodSeconds");
        }
        if (before.path("nodeName").asText("").isEmpty()) {
            keep(before, munged, "nodeName");
        }
        if (!onlyAdded(before.path("tolerations"), after.path("tolerations"))) {
            causes.add(FieldErrors.forbidden(
                    "spec.tolerations", "existing toleration can not be modified except its tolerationSeconds"));
        }
        keep(before, munged, "tolerations");
        boolean gated = !before.path("schedulingGates").isEmpty();
        for (JsonNode g : after.path("schedulingGates")) {
            if (!contains(before.path("schedulingGates"), g)) {
                causes.add(FieldErrors.forbidden(
                        "spec.schedulingGates",
                        "only deletion is allowed, but found new scheduling gate '"
                                + g.path("name").asText("") + "'"));
                break;
            }
        }
        keep(before, munged, "schedulingGates");
        if (gated) {
            // while a pod waits at its gates, its placement may still be narrowed
            keep(before, munged, "nodeSelector");
            keep(before, munged, "affinity");
        }
        if (!JsonValues.semanticallySame(before, munged)) {
            causes.add(FieldErrors.forbidden("spec", UPDATABLE + "\n" + diff(before, munged)));
        }
    }

    private static void images(JsonNode before, ObjectNode munged, String list) {
        JsonNode was = before.path(list);
        if (munged.get(list) instanceof ArrayNode now && now.size() == was.size()) {
            for (int i = 0; i < now.size(); i++) {
                if (now.get(i) instanceof ObjectNode c && was.get(i).has("image")) {
                    c.set("image", was.get(i).get("image"));
                }
            }
        }
    }

    private static void keep(JsonNode before, ObjectNode munged, String field) {
        if (before.has(field)) {
            munged.set(field, before.get(field).deepCopy());
        } else {
            munged.remove(field);
        }
    }

    /** Whether every toleration of {@code before} is still in {@code after}, whatever its tolerationSeconds. */
    private static boolean onlyAdded(JsonNode before, JsonNode after) {
        for (JsonNode old : before) {
            boolean found = false;
            for (JsonNode now : after) {
                if (JsonValues.semanticallySame(withoutSeconds(old), withoutSeconds(now))) {
                    found = true;
                    break;
                }
            }
            if (!found) {
                return false;
            }
        }
        return true;
    }

    private static JsonNode withoutSeconds(JsonNode toleration) {
        if (!(toleration instanceof ObjectNode o)) {
            return toleration;
        }
        ObjectNode c = o.deepCopy();
        c.remove("tolerationSeconds");
        return c;
    }

    private static boolean contains(JsonNode list, JsonNode item) {
        for (JsonNode x : list) {
            if (JsonValues.semanticallySame(x, item)) {
                return true;
            }
        }
        return false;
    }

    /** The changed spec fields, one line each for the stored and the new value, in the shape of kube-apiserver's diff. */
    private static String diff(JsonNode before, JsonNode after) {
        StringBuilder b = new StringBuilder("  core.PodSpec{\n");
        Set<String> fields = new LinkedHashSet<>(before.propertyNames());
        fields.addAll(after.propertyNames());
        for (String f : fields) {
            JsonNode was = before.get(f);
            JsonNode now = after.get(f);
            if (JsonValues.semanticallySame(was, now)) {
                continue;
            }
            String go = Character.toUpperCase(f.charAt(0)) + f.substring(1);
            if (!JsonValues.isZero(was)) {
                b.append("- \t").append(go).append(": ").append(was).append(",\n");
            }
            if (!JsonValues.isZero(now)) {
                b.append("+ \t").append(go).append(": ").append(now).append(",\n");
            }
        }
        return b.append("  }\n").toString();
    }
}
