package io.hotsched.plugins.defaults.interpodaffinity;

import java.util.HashMap;
import java.util.Map;

/**
 * Counts per topology pair (label key, value), nested by key so that a lookup for a node allocates
 * nothing. Filter's counts drop a pair that falls to 0 (so {@link #isEmpty()} means "no pair
 * counted"); score sums keep it, as upstream does.
 */
final class TopologyCounts {

    // long[1] holders: counts are changed in place, so adding allocates nothing once a pair exists
    private final Map<String, Map<String, long[]>> counts = new HashMap<>();
    private final boolean keepZeros;

    TopologyCounts(boolean keepZeros) {
        this.keepZeros = keepZeros;
    }

    void add(String key, String value, long delta) {
        Map<String, long[]> byValue = counts.get(key);
        if (byValue == null) {
            byValue = new HashMap<>();
            counts.put(key, byValue);
        }
        long[] n = byValue.get(value);
        if (n == null) {
            n = new long[1];
            byValue.put(value, n);
        }
        n[0] += delta;
        if (n[0] == 0 && !keepZeros) {
            byValue.remove(value);
            if (byValue.isEmpty()) {
                counts.remove(key);
            }
        }
    }

    long get(String key, String value) {
        Map<String, long[]> byValue = counts.get(key);
        if (byValue == null || value == null) {
            return 0;
        }
        long[] n = byValue.get(value);
        return n == null ? 0 : n[0];
    }

    /** The sum of the counts of the pairs {@code labels} has. */
    long sumFor(Map<String, String> labels) {
        long sum = 0;
        for (Map.Entry<String, Map<String, long[]>> e : counts.entrySet()) {
            String v = labels.get(e.getKey());
            long[] n = v == null ? null : e.getValue().get(v);
            if (n != null) {
                sum += n[0];
            }
        }
        return sum;
    }

    /** Whether any label of {@code labels} is a counted pair. */
    boolean anyPositive(Map<String, String> labels) {
        for (Map.Entry<String, String> l : labels.entrySet()) {
            if (get(l.getKey(), l.getValue()) > 0) {
                return true;
            }
        }
        return false;
    }

    boolean isEmpty() {
        return counts.isEmpty();
    }

    TopologyCounts copy() {
        TopologyCounts c = new TopologyCounts(keepZeros);
        counts.forEach((k, m) -> {
            Map<String, long[]> copy = new HashMap<>();
            m.forEach((v, n) -> copy.put(v, new long[] {n[0]}));
            c.counts.put(k, copy);
        });
        return c;
    }

    /** Adds every pair of {@code other} (a chunk's counts) to these. */
    void addAll(TopologyCounts other) {
        other.counts.forEach((k, m) -> m.forEach((v, n) -> add(k, v, n[0])));
    }
}
