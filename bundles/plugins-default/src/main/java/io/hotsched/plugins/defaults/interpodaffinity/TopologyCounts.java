package io.hotsched.plugins.defaults.interpodaffinity;

import java.util.HashMap;
import java.util.Map;

/**
 * Counts per topology pair (label key, value), nested by key so that a lookup for a node allocates
 * nothing. Filter's counts drop a pair that falls to 0 (so {@link #isEmpty()} means "no pair
 * counted"); score sums keep it, as upstream does.
 */
final class TopologyCounts {

    private final Map<String, Map<String, Long>> counts = new HashMap<>();
    private final boolean keepZeros;

    TopologyCounts(boolean keepZeros) {
        this.keepZeros = keepZeros;
    }

    void add(String key, String value, long delta) {
        Map<String, Long> byValue = counts.computeIfAbsent(key, k -> new HashMap<>());
        long n = byValue.getOrDefault(value, 0L) + delta;
        if (n == 0 && !keepZeros) {
            byValue.remove(value);
            if (byValue.isEmpty()) {
                counts.remove(key);
            }
        } else {
            byValue.put(value, n);
        }
    }

    long get(String key, String value) {
        Map<String, Long> byValue = counts.get(key);
        if (byValue == null || value == null) {
            return 0;
        }
        Long n = byValue.get(value);
        return n == null ? 0 : n;
    }

    /** The sum of the counts of the pairs {@code labels} has. */
    long sumFor(Map<String, String> labels) {
        long sum = 0;
        for (Map.Entry<String, Map<String, Long>> e : counts.entrySet()) {
            String v = labels.get(e.getKey());
            if (v != null) {
                sum += e.getValue().getOrDefault(v, 0L);
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
        counts.forEach((k, m) -> c.counts.put(k, new HashMap<>(m)));
        return c;
    }
}
