package io.hotsched.embedded;

import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.crud.Value;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The CRUD store's keys by kind (plural) and name, kept in step with the store on its single write
 * path, so looking up one object does not scan every object of every kind. A bucket holds the keys
 * of the objects of one plural with one name (several namespaces, or groups); callers still check
 * each candidate against the full query, so answers are the same as a scan's.
 */
final class StoreIndex {

    static final String PLURAL = "plural";
    static final String NAME = "name";

    private final Map<String, List<AttributeSet>> buckets = new ConcurrentHashMap<>();

    void add(AttributeSet key) {
        String k = bucket(key);
        if (k != null) {
            List<AttributeSet> b = buckets.computeIfAbsent(k, x -> new CopyOnWriteArrayList<>());
            if (!b.contains(key)) {
                b.add(key);
            }
        }
    }

    void remove(AttributeSet key) {
        String k = bucket(key);
        if (k == null) {
            return;
        }
        buckets.computeIfPresent(k, (x, b) -> {
            b.remove(key);
            return b.isEmpty() ? null : b;
        });
    }

    /** The keys that may match {@code query}; null when the query does not name one plural and one name. */
    List<AttributeSet> candidates(AttributeSet query) {
        String k = bucket(query);
        if (k == null) {
            return null;
        }
        List<AttributeSet> b = buckets.get(k);
        return b == null ? List.of() : b;
    }

    void clear() {
        buckets.clear();
    }

    int size() {
        return buckets.values().stream().mapToInt(List::size).sum();
    }

    /** The one value of attribute {@code name} of a key, or null. */
    static String value(AttributeSet key, String name) {
        return single(key.getAttribute(name));
    }

    private static String bucket(AttributeSet s) {
        String plural = single(s.getAttribute(PLURAL));
        String name = single(s.getAttribute(NAME));
        return plural == null || name == null ? null : plural + '\0' + name;
    }

    private static String single(Attribute a) {
        if (a == null || a.getValues().size() != 1) {
            return null;
        }
        Value v = a.getValues().get(0);
        return v == null ? null : v.toString();
    }
}
