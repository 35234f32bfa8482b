package io.hotsched.embedded;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The two object operations of server-side apply: merging an applied configuration into the live
 * object (objects field by field, keyed lists item by item, sets by value, anything else replaced;
 * {@code null} clears), and pruning what an applier set before and no longer does, when no manager
 * owns it.
 */
final class ApplyMerge {

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private ApplyMerge() {}

    /** {@code live} (null: nothing yet) with {@code config} merged in; neither is changed. */
    static ObjectNode merge(ObjectNode live, ObjectNode config, Associations rules) {
        return (ObjectNode) mergeObject(live, config, rules, true);
    }

    private static JsonNode mergeObject(ObjectNode live, ObjectNode config, Associations rules, boolean root) {
        ObjectNode out = live == null ? F.objectNode() : live.deepCopy();
        for (Map.Entry<String, JsonNode> e : config.properties()) {
            String f = e.getKey();
            JsonNode merged = mergeValue(f, out.get(f), e.getValue(), rules.below(f, root));
            if (merged == null) {
                out.remove(f);
            } else {
                out.set(f, merged);
            }
        }
        return out;
    }

    private static JsonNode mergeValue(String field, JsonNode live, JsonNode config, Associations rules) {
        if (config.isNull()) {
            return null;
        }
        if (config instanceof ObjectNode c && !rules.atomicObject(field)) {
            return mergeObject(live instanceof ObjectNode l ? l : null, c, rules, false);
        }
        if (config instanceof ArrayNode c && live instanceof ArrayNode l) {
            List<String> ce = rules.elements(field, c);
            List<String> le = rules.elements(field, l);
            if (ce != null && le != null) {
                return mergeList(field, l, le, c, ce, rules);
            }
        }
        return config.deepCopy();
    }

    /**
     * The live items and the configured ones: a live item the configuration does not name stays
     * where it was, the configured items follow the configuration's order, merged with their live
     * counterparts.
     */
    private static ArrayNode mergeList(
            String field, ArrayNode live, List<String> le, ArrayNode config, List<String> ce, Associations rules) {
        Map<String, JsonNode> liveItems = new HashMap<>();
        for (int i = 0; i < le.size(); i++) {
            liveItems.put(le.get(i), live.get(i));
        }
        Set<String> configured = new HashSet<>(ce);
        ArrayNode out = F.arrayNode();
        int i = 0;
        for (int j = 0; j < ce.size(); j++) {
            while (i < le.size() && !configured.contains(le.get(i))) {
                out.add(live.get(i++).deepCopy());
            }
            JsonNode item = config.get(j);
            JsonNode was = liveItems.get(ce.get(j));
            out.add(
                    was instanceof ObjectNode w && item instanceof ObjectNode c
                            ? mergeObject(w, c, rules, false)
                            : item.deepCopy());
            if (i < le.size()) {
                i++;
            }
        }
        for (; i < le.size(); i++) {
            if (!configured.contains(le.get(i))) {
                out.add(live.get(i).deepCopy());
            }
        }
        return out;
    }

    /**
     * Removes from {@code object} the paths of {@code dropped} (what an applier set last time and
     * not now) that no manager owns, itself and all below it ({@code owned}); an object or list
     * left empty by that goes too.
     */
    static void prune(ObjectNode object, FieldSet dropped, FieldSet owned, Associations rules) {
        pruneObject(object, dropped, owned, rules, true);
    }

    private static void pruneObject(
            ObjectNode object, FieldSet dropped, FieldSet owned, Associations rules, boolean root) {
        for (Map.Entry<String, FieldSet> e : dropped.children().entrySet()) {
            if (!e.getKey().startsWith("f:")) {
                continue;
            }
            String f = e.getKey().substring(2);
            JsonNode v = object.get(f);
            if (v == null) {
                continue;
            }
            FieldSet o = owned == null ? null : owned.child(e.getKey());
            if (e.getValue().member() && (o == null || o.isEmpty())) {
                object.remove(f);
            } else if (pruneValue(f, v, e.getValue(), o, rules.below(f, root))) {
                object.remove(f);
            }
        }
    }

    /** Prunes below {@code v}; true when that left it empty. */
    private static boolean pruneValue(String field, JsonNode v, FieldSet dropped, FieldSet owned, Associations rules) {
        if (dropped.children().isEmpty() || v.isEmpty()) {
            return false;
        }
        if (v instanceof ObjectNode o) {
            pruneObject(o, dropped, owned, rules, false);
        } else if (v instanceof ArrayNode a) {
            List<String> elements = rules.elements(field, a);
            if (elements == null) {
                return false;
            }
            List<Integer> gone = new ArrayList<>();
            for (int i = 0; i < elements.size(); i++) {
                FieldSet d = dropped.child(elements.get(i));
                if (d == null) {
                    continue;
                }
                FieldSet o = owned == null ? null : owned.child(elements.get(i));
                if (d.member() && (o == null || o.isEmpty())) {
                    gone.add(i);
                } else if (a.get(i) instanceof ObjectNode item) {
                    pruneObject(item, d, o, rules, false);
                }
            }
            for (int k = gone.size() - 1; k >= 0; k--) {
                a.remove((int) gone.get(k));
            }
        }
        return v.isEmpty();
    }
}
