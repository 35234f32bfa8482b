package io.hotsched.embedded;

import io.hotsched.embedded.ManagedFields.Entry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Field ownership as kube-apiserver keeps it. An update gives its manager the fields it changed and
 * takes them from everyone else; fields it removed are no one's. An apply gives its manager the
 * fields of its configuration, removes the fields it applied before, does not apply now and no
 * one else owns, and fails on a field it changes that another manager owns, unless forced (then
 * the field changes hands). Applying to an object without managed fields first gives what it
 * has to {@code before-first-apply}.
 */
final class FieldManager {

    static final String BEFORE_FIRST_APPLY = "before-first-apply";

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    /** A field another manager owns. */
    record Conflict(Entry manager, List<String> path) {}

    /** What an apply comes to: the object and its managers, or the conflicts that stopped it. */
    record Applied(ObjectNode object, List<Entry> managers, List<Conflict> conflicts) {}

    private FieldManager() {}

    /** {@code managers} after {@code manager} wrote {@code after} over {@code before} (null: a create). */
    static List<Entry> update(
            List<Entry> managers,
            JsonNode before,
            JsonNode after,
            String manager,
            String apiVersion,
            Associations rules,
            String now) {
        ObjectFields.Comparison c = ObjectFields.compare(before == null ? skeleton(after) : before, after, rules);
        FieldSet changed = c.changed();
        Entry self = new Entry(manager, ManagedFields.UPDATE, apiVersion, now, "", changed);
        List<Entry> out = new ArrayList<>();
        Entry previous = null;
        for (Entry e : managers) {
            if (e.sameManager(self)) {
                previous = e;
            } else {
                out.add(e.withFields(e.fields().minus(changed).minus(c.removed())));
            }
        }
        if (previous != null) {
            FieldSet kept = previous.fields().minus(c.removed()).union(changed);
            out.add(changed.isEmpty() ? previous.withFields(kept) : self.withFields(kept));
        } else if (!changed.isEmpty()) {
            out.add(self);
        }
        return out;
    }

    /** {@code config} applied by {@code manager} to {@code live} (null: nothing yet). */
    static Applied apply(
            List<Entry> managers,
            ObjectNode live,
            ObjectNode config,
            String manager,
            boolean force,
            Associations rules,
            String now) {
        String apiVersion = config.path("apiVersion").asText("");
        List<Entry> base = managers;
        if (live != null && managers.isEmpty()) {
            base = update(
                    List.of(),
                    null,
                    live,
                    BEFORE_FIRST_APPLY,
                    live.path("apiVersion").asText(""),
                    rules,
                    now);
        }
        ObjectNode merged = ApplyMerge.merge(live, config, rules);
        FieldSet applied = ObjectFields.of(config, rules);
        Entry self = new Entry(manager, ManagedFields.APPLY, apiVersion, now, "", applied);
        Entry previous = ManagedFields.find(base, self);
        List<Entry> others = new ArrayList<>(base);
        others.remove(previous);
        if (previous != null) {
            ApplyMerge.prune(
                    merged,
                    previous.fields().minus(applied),
                    ManagedFields.owned(others).union(applied),
                    rules);
        }
        ObjectFields.Comparison c = ObjectFields.compare(live == null ? skeleton(merged) : live, merged, rules);
        FieldSet changed = c.changed();
        List<Conflict> conflicts = new ArrayList<>();
        for (Entry o : others) {
            for (List<String> path : o.fields().intersect(changed).paths()) {
                conflicts.add(new Conflict(o, path));
            }
        }
        if (!conflicts.isEmpty() && !force) {
            conflicts.sort(Comparator.comparing((Conflict x) -> x.manager().manager())
                    .thenComparing(x -> x.manager().operation()));
            return new Applied(null, null, conflicts);
        }
        List<Entry> out = new ArrayList<>();
        for (Entry o : others) {
            out.add(o.withFields(o.fields().minus(changed).minus(c.removed())));
        }
        boolean objectChanged = !changed.isEmpty() || !c.removed().isEmpty();
        out.add(objectChanged || previous == null ? self : self.at(previous.time()));
        return new Applied(merged, out, List.of());
    }

    /**
     * What a create compares with: the object before it existed, as kube-apiserver decodes an
     * empty one, with its spec (and a pod template's metadata and spec) present and empty, so
     * these are not fields the creator added.
     */
    private static ObjectNode skeleton(JsonNode object) {
        ObjectNode s = F.objectNode();
        s.putObject("metadata");
        JsonNode spec = object == null ? null : object.get("spec");
        if (spec != null && spec.isObject()) {
            ObjectNode sk = s.putObject("spec");
            if (spec.path("template").isObject()) {
                ObjectNode t = sk.putObject("template");
                t.putObject("metadata");
                t.putObject("spec");
            }
        }
        return s;
    }

    /** The message of kube-apiserver's 409 for {@code conflicts}. */
    static String message(List<Conflict> conflicts) {
        if (conflicts.size() == 1) {
            Conflict c = conflicts.get(0);
            return "Apply failed with 1 conflict: conflict with " + c.manager().described() + ": "
                    + FieldSet.describe(c.path());
        }
        StringBuilder b = new StringBuilder("Apply failed with " + conflicts.size() + " conflicts: ");
        Entry last = null;
        for (Conflict c : conflicts) {
            if (last == null || !last.sameManager(c.manager())) {
                b.append(last == null ? "" : "\n")
                        .append("conflicts with ")
                        .append(c.manager().described())
                        .append(':');
                last = c.manager();
            }
            b.append("\n- ").append(FieldSet.describe(c.path()));
        }
        return b.toString();
    }
}
