package io.hotsched.embedded;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Strategic merge patch (what kubectl sends for label, annotate, cordon, drain, patch and
 * client-side apply) with the patch strategies of the built-in kinds' fields, by field name: lists
 * with a merge key are merged element by element, the others replaced whole; {@code null} deletes a
 * field; the directives {@code $patch} (delete, replace, merge), {@code $retainKeys},
 * {@code $deleteFromPrimitiveList/F} and {@code $setElementOrder/F} are followed.
 */
final class StrategicMerge {

    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final String PATCH = "$patch";
    private static final String RETAIN_KEYS = "$retainKeys";
    private static final String DELETE_FROM = "$deleteFromPrimitiveList/";
    private static final String ORDER = "$setElementOrder/";

    /**
     * Merge keys of the lists whose strategy is merge (k8s.io/api 1.32 patchMergeKey tags). Lists not
     * named here, tolerations and taints among them, are atomic and replaced.
     */
    private static final Map<String, String> MERGE_KEYS = Map.ofEntries(
            Map.entry("containers", "name"),
            Map.entry("initContainers", "name"),
            Map.entry("ephemeralContainers", "name"),
            Map.entry("volumes", "name"),
            Map.entry("volumeMounts", "mountPath"),
            Map.entry("volumeDevices", "devicePath"),
            Map.entry("env", "name"),
            Map.entry("imagePullSecrets", "name"),
            Map.entry("hostAliases", "ip"),
            Map.entry("podIPs", "ip"),
            Map.entry("hostIPs", "ip"),
            Map.entry("conditions", "type"),
            Map.entry("addresses", "type"),
            Map.entry("ownerReferences", "uid"),
            Map.entry("topologySpreadConstraints", "topologyKey"),
            Map.entry("resourceClaims", "name"),
            Map.entry("resourceClaimStatuses", "name"),
            Map.entry("schedulingGates", "name"));

    /** Lists of scalars with the merge strategy: the patch's items are added to what is there. */
    private static final Set<String> MERGED_SCALAR_LISTS = Set.of("finalizers", "podCIDRs");

    private StrategicMerge() {}

    /** The merge key of the items of the list {@code field}, or null when it has none. */
    static String mergeKey(String field) {
        return MERGE_KEYS.get(field);
    }

    /** Whether the list of scalars {@code field} is merged as a set. */
    static boolean mergedScalarList(String field) {
        return MERGED_SCALAR_LISTS.contains(field);
    }

    /** {@code original} with {@code patch} applied; neither is changed. */
    static JsonNode apply(JsonNode original, JsonNode patch) {
        if (!patch.isObject()) {
            return patch.deepCopy();
        }
        return mergeObject(original != null && original.isObject() ? (ObjectNode) original : null, (ObjectNode) patch);
    }

    private static JsonNode mergeObject(ObjectNode original, ObjectNode patch) {
        String directive = patch.path(PATCH).asText("");
        if (directive.equals("delete")) {
            return null;
        }
        if (directive.equals("replace")) {
            return withoutDirectives(patch);
        }
        ObjectNode out = original == null ? F.objectNode() : original.deepCopy();
        for (String field : patch.propertyNames()) {
            JsonNode p = patch.get(field);
            if (field.equals(PATCH) || field.equals(RETAIN_KEYS) || field.startsWith(ORDER)) {
                continue;
            }
            if (field.startsWith(DELETE_FROM)) {
                String list = field.substring(DELETE_FROM.length());
                if (out.get(list) instanceof ArrayNode a) {
                    Set<JsonNode> gone = new HashSet<>();
                    p.forEach(gone::add);
                    ArrayNode kept = F.arrayNode();
                    a.forEach(x -> {
                        if (!gone.contains(x)) {
                            kept.add(x);
                        }
                    });
                    out.set(list, kept);
                }
                continue;
            }
            if (p.isNull()) {
                out.remove(field);
                continue;
            }
            JsonNode current = out.get(field);
            JsonNode merged;
            if (p.isObject()) {
                merged = mergeObject(current instanceof ObjectNode o ? o : null, (ObjectNode) p);
            } else if (p.isArray()) {
                merged = mergeList(field, current instanceof ArrayNode a ? a : null, (ArrayNode) p);
            } else {
                merged = p.deepCopy();
            }
            if (merged == null) {
                out.remove(field);
            } else {
                out.set(field, merged);
            }
        }
        if (patch.get(RETAIN_KEYS) instanceof ArrayNode retain) {
            Set<String> keep = new HashSet<>();
            retain.forEach(k -> keep.add(k.asText()));
            for (String field : new ArrayList<>(out.propertyNames())) {
                if (!keep.contains(field)) {
                    out.remove(field);
                }
            }
        }
        for (String field : patch.propertyNames()) {
            if (field.startsWith(ORDER) && out.get(field.substring(ORDER.length())) instanceof ArrayNode a) {
                out.set(
                        field.substring(ORDER.length()),
                        order(a, (ArrayNode) patch.get(field), MERGE_KEYS.get(field.substring(ORDER.length()))));
            }
        }
        return out;
    }

    private static JsonNode mergeList(String field, ArrayNode original, ArrayNode patch) {
        String key = MERGE_KEYS.get(field);
        if (field.equals("ports") && !patch.isEmpty()) {
            // container ports are keyed by containerPort, a service's by port
            key = patch.get(0).has("containerPort") ? "containerPort" : "port";
        }
        if (key == null && !MERGED_SCALAR_LISTS.contains(field)) {
            return withoutDirectives(patch);
        }
        for (JsonNode p : patch) {
            if (p.path(PATCH).asText("").equals("replace")) {
                ArrayNode replaced = F.arrayNode();
                for (JsonNode q : patch) {
                    if (!q.path(PATCH).asText("").equals("replace")) {
                        replaced.add(withoutDirectives(q));
                    }
                }
                return replaced;
            }
        }
        List<JsonNode> out = new ArrayList<>();
        if (original != null) {
            original.forEach(x -> out.add(x.deepCopy()));
        }
        for (JsonNode p : patch) {
            if (key == null || !p.isObject()) {
                if (!out.contains(p)) {
                    out.add(p.deepCopy());
                }
                continue;
            }
            JsonNode id = p.get(key);
            int at = -1;
            for (int i = 0; i < out.size() && id != null; i++) {
                if (id.equals(out.get(i).get(key))) {
                    at = i;
                    break;
                }
            }
            if (p.path(PATCH).asText("").equals("delete")) {
                if (at >= 0) {
                    out.remove(at);
                }
            } else if (at >= 0) {
                out.set(at, mergeObject((ObjectNode) out.get(at), (ObjectNode) p));
            } else {
                out.add(withoutDirectives(p));
            }
        }
        ArrayNode a = F.arrayNode();
        out.forEach(a::add);
        return a;
    }

    /** {@code list} in the order {@code order} gives (by merge key, or by value); the rest after, as they were. */
    private static ArrayNode order(ArrayNode list, ArrayNode order, String key) {
        List<JsonNode> rest = new ArrayList<>();
        list.forEach(rest::add);
        ArrayNode out = F.arrayNode();
        for (JsonNode o : order) {
            JsonNode want = key == null ? o : o.get(key);
            for (int i = 0; i < rest.size(); i++) {
                JsonNode x = rest.get(i);
                if (want != null && want.equals(key == null ? x : x.get(key))) {
                    out.add(x);
                    rest.remove(i);
                    break;
                }
            }
        }
        rest.forEach(out::add);
        return out;
    }

    /** A patch value as it is stored: without the directives it may carry. */
    private static JsonNode withoutDirectives(JsonNode p) {
        if (p.isObject()) {
            ObjectNode o = F.objectNode();
            for (String field : p.propertyNames()) {
                if (!field.startsWith("$")) {
                    o.set(field, withoutDirectives(p.get(field)));
                }
            }
            return o;
        }
        if (p.isArray()) {
            ArrayNode a = F.arrayNode();
            p.forEach(x -> a.add(withoutDirectives(x)));
            return a;
        }
        return p.deepCopy();
    }
}
