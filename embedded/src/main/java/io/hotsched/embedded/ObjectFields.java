package io.hotsched.embedded;

import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The field sets server-side apply reasons with: the fields an applied configuration sets, and
 * what changed between two versions of an object (added, modified, removed). Fields the server
 * owns (apiVersion, kind, the name, uid, resourceVersion ... of metadata, managedFields) and
 * {@code status} (written through its subresource) belong to no manager, as on kube-apiserver.
 */
final class ObjectFields {

    /** What changed from one version of an object to the next. */
    record Comparison(FieldSet added, FieldSet modified, FieldSet removed) {
        FieldSet changed() {
            return added.union(modified);
        }
    }

    private static final String[] SERVER_OWNED = {
        "name", "namespace", "creationTimestamp", "selfLink", "uid", "generation", "resourceVersion"
    };

    private ObjectFields() {}

    /**
     * The fields an applied configuration sets: its leaves, the items of its keyed lists, and the
     * objects it sets empty; a struct with fields set is not itself a member.
     */
    static FieldSet of(JsonNode config, Associations rules) {
        FieldSet s = new FieldSet();
        if (config instanceof ObjectNode o) {
            fieldsOf(o, s, rules, true);
        }
        return withoutServerFields(s);
    }

    private static void fieldsOf(ObjectNode o, FieldSet s, Associations rules, boolean root) {
        for (Map.Entry<String, JsonNode> e : o.properties()) {
            valueOf(e.getKey(), e.getValue(), s.with("f:" + e.getKey()), rules.below(e.getKey(), root));
        }
    }

    private static void valueOf(String field, JsonNode v, FieldSet at, Associations rules) {
        if (v instanceof ObjectNode o && !o.isEmpty() && !rules.atomicObject(field)) {
            fieldsOf(o, at, rules, false);
            return;
        }
        List<String> elements = v instanceof ArrayNode a ? rules.elements(field, a) : null;
        if (elements == null) {
            at.mark();
            return;
        }
        for (int i = 0; i < elements.size(); i++) {
            FieldSet item = at.with(elements.get(i));
            item.mark();
            if (v.get(i) instanceof ObjectNode o) {
                fieldsOf(o, item, rules, false);
            }
        }
    }

    /** What changed from {@code before} (null: nothing) to {@code after}. */
    static Comparison compare(JsonNode before, JsonNode after, Associations rules) {
        FieldSet added = new FieldSet();
        FieldSet modified = new FieldSet();
        FieldSet removed = new FieldSet();
        compareObjects(
                before instanceof ObjectNode b ? b : null,
                after instanceof ObjectNode a ? a : null,
                added,
                modified,
                removed,
                rules,
                true);
        return new Comparison(withoutServerFields(added), withoutServerFields(modified), withoutServerFields(removed));
    }

    private static void compareObjects(
            ObjectNode before,
            ObjectNode after,
            FieldSet added,
            FieldSet modified,
            FieldSet removed,
            Associations rules,
            boolean root) {
        if (after != null) {
            for (Map.Entry<String, JsonNode> e : after.properties()) {
                String f = e.getKey();
                String element = "f:" + f;
                Associations r = rules.below(f, root);
                JsonNode was = before == null ? null : before.get(f);
                if (was == null) {
                    all(f, e.getValue(), added.with(element), r);
                } else {
                    compareValues(
                            f,
                            was,
                            e.getValue(),
                            added.with(element),
                            modified.with(element),
                            removed.with(element),
                            r);
                }
            }
        }
        if (before != null) {
            for (Map.Entry<String, JsonNode> e : before.properties()) {
                if (after == null || !after.has(e.getKey())) {
                    all(e.getKey(), e.getValue(), removed.with("f:" + e.getKey()), rules.below(e.getKey(), root));
                }
            }
        }
    }

    private static void compareValues(
            String field,
            JsonNode before,
            JsonNode after,
            FieldSet added,
            FieldSet modified,
            FieldSet removed,
            Associations rules) {
        if (before instanceof ObjectNode b && after instanceof ObjectNode a && !rules.atomicObject(field)) {
            compareObjects(b, a, added, modified, removed, rules, false);
            return;
        }
        List<String> was = before instanceof ArrayNode b ? rules.elements(field, b) : null;
        List<String> is = after instanceof ArrayNode a ? rules.elements(field, a) : null;
        if (was == null || is == null) {
            if (!JsonValues.same(before, after)) {
                modified.mark();
            }
            return;
        }
        Map<String, JsonNode> old = new HashMap<>();
        for (int i = 0; i < was.size(); i++) {
            old.put(was.get(i), before.get(i));
        }
        for (int i = 0; i < is.size(); i++) {
            String e = is.get(i);
            JsonNode item = after.get(i);
            JsonNode oldItem = old.remove(e);
            if (oldItem == null) {
                all(field, item, added.with(e), rules);
            } else if (oldItem instanceof ObjectNode o && item instanceof ObjectNode n) {
                compareObjects(o, n, added.with(e), modified.with(e), removed.with(e), rules, false);
            } else if (!JsonValues.same(oldItem, item)) {
                modified.with(e).mark();
            }
        }
        old.forEach((e, item) -> all(field, item, removed.with(e), rules));
    }

    /** Every path of {@code v}, itself included, into {@code at}. */
    private static void all(String field, JsonNode v, FieldSet at, Associations rules) {
        at.mark();
        if (v instanceof ObjectNode o && !rules.atomicObject(field)) {
            for (Map.Entry<String, JsonNode> e : o.properties()) {
                all(e.getKey(), e.getValue(), at.with("f:" + e.getKey()), rules);
            }
            return;
        }
        List<String> elements = v instanceof ArrayNode a ? rules.elements(field, a) : null;
        if (elements != null) {
            Iterator<JsonNode> items = v.iterator();
            for (String e : elements) {
                all(field, items.next(), at.with(e), rules);
            }
        }
    }

    private static FieldSet withoutServerFields(FieldSet s) {
        s.remove("f:status");
        s.unmark("f:apiVersion");
        s.unmark("f:kind");
        FieldSet metadata = s.child("f:metadata");
        if (metadata != null) {
            metadata.unmark();
            metadata.remove("f:managedFields");
            for (String f : SERVER_OWNED) {
                metadata.remove("f:" + f);
            }
        }
        return s;
    }
}
