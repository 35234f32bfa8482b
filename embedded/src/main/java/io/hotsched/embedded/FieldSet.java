package io.hotsched.embedded;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A set of field paths, as {@code metadata.managedFields[].fieldsV1} writes them: each path element
 * is {@code f:<field>}, {@code k:<key fields as JSON>} (an item of a list with keys),
 * {@code v:<value as JSON>} (an item of a list of scalars kept as a set) or {@code i:<index>}; a
 * path is in the set when its node is a member ({@code "."}, or an empty object at a leaf).
 */
final class FieldSet {

    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** The order kube-apiserver writes elements in: fields, keys, values, indices. */
    private static final Comparator<String> ORDER = (a, b) -> {
        int ra = rank(a);
        int rb = rank(b);
        if (ra != rb) {
            return Integer.compare(ra, rb);
        }
        if (ra == 3) {
            return Integer.compare(Integer.parseInt(a.substring(2)), Integer.parseInt(b.substring(2)));
        }
        return a.compareTo(b);
    };

    private boolean member;
    private TreeMap<String, FieldSet> children;

    private static int rank(String element) {
        return switch (element.charAt(0)) {
            case 'f' -> 0;
            case 'k' -> 1;
            case 'v' -> 2;
            default -> 3;
        };
    }

    boolean member() {
        return member;
    }

    void mark() {
        member = true;
    }

    /** The child at {@code element}, or null. */
    FieldSet child(String element) {
        return children == null ? null : children.get(element);
    }

    /** The child at {@code element}, made when missing. */
    FieldSet with(String element) {
        if (children == null) {
            children = new TreeMap<>(ORDER);
        }
        return children.computeIfAbsent(element, e -> new FieldSet());
    }

    Map<String, FieldSet> children() {
        return children == null ? Map.of() : children;
    }

    /** True when no path is a member. */
    boolean isEmpty() {
        if (member) {
            return false;
        }
        for (FieldSet c : children().values()) {
            if (!c.isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /** Drops the subtree at {@code element}. */
    void remove(String element) {
        if (children != null) {
            children.remove(element);
        }
    }

    /** Takes {@code path} out of the set (its descendants stay). */
    void unmark(String... path) {
        FieldSet at = this;
        for (String e : path) {
            at = at.child(e);
            if (at == null) {
                return;
            }
        }
        at.member = false;
    }

    FieldSet copy() {
        FieldSet c = new FieldSet();
        c.member = member;
        children().forEach((e, s) -> c.with(e).absorb(s.copy()));
        return c;
    }

    private void absorb(FieldSet s) {
        member = s.member;
        children = s.children;
    }

    /** The paths in this set or in {@code other}. */
    FieldSet union(FieldSet other) {
        FieldSet out = copy();
        out.add(other);
        return out;
    }

    private void add(FieldSet other) {
        member |= other.member;
        other.children().forEach((e, s) -> with(e).add(s));
    }

    /** The paths in this set and not in {@code other}. */
    FieldSet minus(FieldSet other) {
        FieldSet out = new FieldSet();
        out.member = member && (other == null || !other.member);
        children().forEach((e, s) -> {
            FieldSet c = s.minus(other == null ? null : other.child(e));
            if (!c.isEmpty()) {
                out.with(e).absorb(c);
            }
        });
        return out;
    }

    /** The paths in both sets. */
    FieldSet intersect(FieldSet other) {
        FieldSet out = new FieldSet();
        out.member = member && other.member;
        children().forEach((e, s) -> {
            FieldSet o = other.child(e);
            if (o != null) {
                FieldSet c = s.intersect(o);
                if (!c.isEmpty()) {
                    out.with(e).absorb(c);
                }
            }
        });
        return out;
    }

    /** The member paths, each a list of elements, in kube-apiserver's order. */
    List<List<String>> paths() {
        List<List<String>> out = new ArrayList<>();
        collect(new ArrayList<>(), out);
        return out;
    }

    private void collect(List<String> at, List<List<String>> out) {
        if (member) {
            out.add(List.copyOf(at));
        }
        children().forEach((e, s) -> {
            at.add(e);
            s.collect(at, out);
            at.remove(at.size() - 1);
        });
    }

    /** A path as kube-apiserver prints it: {@code .spec.containers[name="c"].image}. */
    static String describe(List<String> path) {
        StringBuilder b = new StringBuilder();
        for (String e : path) {
            String rest = e.substring(2);
            switch (e.charAt(0)) {
                case 'f' -> b.append('.').append(rest);
                case 'k' -> {
                    b.append('[');
                    boolean first = true;
                    for (Map.Entry<String, JsonNode> k : JSON.readTree(rest).properties()) {
                        b.append(first ? "" : ",")
                                .append(k.getKey())
                                .append('=')
                                .append(k.getValue());
                        first = false;
                    }
                    b.append(']');
                }
                case 'v' -> b.append("[=").append(rest).append(']');
                default -> b.append('[').append(rest).append(']');
            }
        }
        return b.toString();
    }

    /** The set a {@code fieldsV1} object names; an unreadable one names nothing. */
    static FieldSet read(JsonNode fieldsV1) {
        FieldSet s = new FieldSet();
        if (fieldsV1 == null || !fieldsV1.isObject()) {
            return s;
        }
        if (fieldsV1.isEmpty()) {
            s.member = true;
        }
        for (Map.Entry<String, JsonNode> e : fieldsV1.properties()) {
            if (e.getKey().equals(".")) {
                s.member = true;
            } else if (e.getKey().length() > 2 && e.getKey().charAt(1) == ':') {
                s.with(e.getKey()).absorb(read(e.getValue()));
            }
        }
        return s;
    }

    /** This set as a {@code fieldsV1} object. */
    ObjectNode write() {
        ObjectNode o = F.objectNode();
        boolean hasChildren = false;
        for (Map.Entry<String, FieldSet> e : children().entrySet()) {
            if (!e.getValue().isEmpty()) {
                hasChildren = true;
                break;
            }
        }
        if (member && hasChildren) {
            o.putObject(".");
        }
        children().forEach((e, s) -> {
            if (!s.isEmpty()) {
                o.set(e, s.write());
            }
        });
        return o;
    }

    @Override
    public String toString() {
        return write().toString();
    }
}
