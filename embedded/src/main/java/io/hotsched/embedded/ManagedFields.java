package io.hotsched.embedded;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * An object's {@code metadata.managedFields}: one entry per manager and operation (an
 * {@code Update} entry per API version too), each with the fields it owns, written in
 * kube-apiserver's order (Apply entries first, then by time, manager, API version).
 */
final class ManagedFields {

    static final String APPLY = "Apply";
    static final String UPDATE = "Update";

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    /** One entry. */
    record Entry(
            String manager, String operation, String apiVersion, String time, String subresource, FieldSet fields) {

        /** Whether {@code other} is the same manager (an Apply entry does not depend on the API version). */
        boolean sameManager(Entry other) {
            return manager.equals(other.manager)
                    && operation.equals(other.operation)
                    && subresource.equals(other.subresource)
                    && (operation.equals(APPLY) || apiVersion.equals(other.apiVersion));
        }

        Entry withFields(FieldSet f) {
            return new Entry(manager, operation, apiVersion, time, subresource, f);
        }

        Entry at(String newTime) {
            return new Entry(manager, operation, apiVersion, newTime, subresource, fields);
        }

        /** The manager as a conflict names it: {@code "kubectl"}, {@code "x" using apps/v1}. */
        String described() {
            String s = StatusJson.quote(manager);
            if (!subresource.isEmpty()) {
                s += " with subresource " + StatusJson.quote(subresource);
            }
            return operation.equals(UPDATE) ? s + " using " + apiVersion : s;
        }
    }

    private static final Comparator<Entry> ORDER = Comparator.comparing(Entry::operation)
            .thenComparing(e -> e.time() == null ? "" : e.time())
            .thenComparing(Entry::manager)
            .thenComparing(Entry::apiVersion)
            .thenComparing(Entry::subresource);

    private ManagedFields() {}

    /** The entries of {@code object}; none when it has none or they are unreadable. */
    static List<Entry> of(JsonNode object) {
        return read(object == null ? null : object.path("metadata").get("managedFields"));
    }

    static List<Entry> read(JsonNode managedFields) {
        List<Entry> out = new ArrayList<>();
        if (managedFields == null || !managedFields.isArray()) {
            return out;
        }
        for (JsonNode e : managedFields) {
            if (!e.isObject() || !e.path("fieldsV1").isObject()) {
                continue;
            }
            out.add(new Entry(
                    e.path("manager").asText(""),
                    e.path("operation").asText(UPDATE),
                    e.path("apiVersion").asText(""),
                    e.path("time").isString() ? e.path("time").asText() : null,
                    e.path("subresource").asText(""),
                    FieldSet.read(e.get("fieldsV1"))));
        }
        return out;
    }

    /**
     * Whether a write's {@code managedFields} ask for them to be dropped: a list of one empty entry
     * does (an empty list does not, so that a client unaware of the field cannot drop it).
     */
    static boolean resets(JsonNode managedFields) {
        return managedFields != null
                && managedFields.isArray()
                && managedFields.size() == 1
                && managedFields.get(0).isObject()
                && managedFields.get(0).isEmpty();
    }

    /** {@code entries} as {@code metadata.managedFields}, empty ones left out. */
    static ArrayNode write(List<Entry> entries) {
        List<Entry> sorted = new ArrayList<>(entries);
        sorted.removeIf(e -> e.fields().isEmpty());
        sorted.sort(ORDER);
        ArrayNode out = F.arrayNode();
        for (Entry e : sorted) {
            ObjectNode o = out.addObject();
            o.put("manager", e.manager());
            o.put("operation", e.operation());
            o.put("apiVersion", e.apiVersion());
            if (e.time() != null) {
                o.put("time", e.time());
            }
            o.put("fieldsType", "FieldsV1");
            o.set("fieldsV1", e.fields().write());
            if (!e.subresource().isEmpty()) {
                o.put("subresource", e.subresource());
            }
        }
        return out;
    }

    /** The entry of {@code entries} that is {@code wanted}'s manager, or null. */
    static Entry find(List<Entry> entries, Entry wanted) {
        for (Entry e : entries) {
            if (e.sameManager(wanted)) {
                return e;
            }
        }
        return null;
    }

    /** The fields all of {@code entries} own together. */
    static FieldSet owned(List<Entry> entries) {
        FieldSet all = new FieldSet();
        for (Entry e : entries) {
            all = all.union(e.fields());
        }
        return all;
    }

    static boolean sameSets(List<Entry> a, List<Entry> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (Entry e : a) {
            Entry o = find(b, e);
            if (o == null || !Objects.equals(e.fields().toString(), o.fields().toString())) {
                return false;
            }
        }
        return true;
    }
}
