package io.hotsched.embedded;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * How server-side apply tells the parts of an object apart. For the built-in kinds: lists whose
 * items have keys (kube-apiserver reads them from the OpenAPI {@code x-kubernetes-list-map-keys};
 * for the core kinds they are the strategic merge keys {@link StrategicMerge} knows, container and
 * service ports and topology spread constraints with a second key), lists of scalars kept as sets
 * ({@code finalizers}), and structs replaced whole ({@code x-kubernetes-map-type: atomic}: label
 * selectors, {@code nodeSelector}, object references). Any other list is atomic. A custom resource
 * has atomic lists and granular objects, as a CRD without list types; its metadata follows the
 * built-in rules.
 */
final class Associations {

    static final Associations BUILT_IN = new Associations(true);
    static final Associations CUSTOM = new Associations(false);

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private static final Set<String> ATOMIC = Set.of(
            "selector",
            "labelSelector",
            "namespaceSelector",
            "nodeSelector",
            "requiredDuringSchedulingIgnoredDuringExecution",
            "fieldRef",
            "resourceFieldRef",
            "configMapKeyRef",
            "secretKeyRef",
            "claimRef");

    private final boolean builtIn;

    private Associations(boolean builtIn) {
        this.builtIn = builtIn;
    }

    /** The rules for the value of {@code field}; {@code root} when the field is a top-level one. */
    Associations below(String field, boolean root) {
        return !builtIn && root && field.equals("metadata") ? BUILT_IN : this;
    }

    /** Whether the object in {@code field} is replaced whole. */
    boolean atomicObject(String field) {
        return builtIn && ATOMIC.contains(field);
    }

    /**
     * The path elements naming the items of the list {@code field}, in order; null when the list is
     * atomic (replaced whole), as it also is when an item lacks a key or two items share one.
     */
    List<String> elements(String field, ArrayNode items) {
        if (!builtIn) {
            return null;
        }
        List<String> out = new ArrayList<>(items.size());
        Set<String> seen = new HashSet<>();
        if (StrategicMerge.mergedScalarList(field)) {
            for (JsonNode item : items) {
                if (item.isContainer() || !seen.add("v:" + item)) {
                    return null;
                }
                out.add("v:" + item);
            }
            return out;
        }
        List<String> keys = keys(field, items);
        if (keys == null) {
            return null;
        }
        for (JsonNode item : items) {
            if (!item.isObject()) {
                return null;
            }
            ObjectNode key = F.objectNode();
            for (String k : keys) {
                JsonNode v = item.get(k);
                if (v == null && k.equals("protocol")) {
                    // the OpenAPI default of a port's protocol, which kube-apiserver keys by too
                    v = F.stringNode("TCP");
                }
                if (v == null || v.isNull()) {
                    return null;
                }
                key.set(k, v);
            }
            String e = "k:" + key;
            if (!seen.add(e)) {
                return null;
            }
            out.add(e);
        }
        return out;
    }

    /** The key fields of the items of list {@code field}, sorted; null for an atomic list. */
    private static List<String> keys(String field, ArrayNode items) {
        if (field.equals("ports")) {
            boolean container = !items.isEmpty() && items.get(0).has("containerPort");
            return List.of(container ? "containerPort" : "port", "protocol");
        }
        if (field.equals("topologySpreadConstraints")) {
            return List.of("topologyKey", "whenUnsatisfiable");
        }
        String key = StrategicMerge.mergeKey(field);
        return key == null ? null : List.of(key);
    }
}
