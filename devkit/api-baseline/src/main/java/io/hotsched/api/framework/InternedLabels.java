package io.hotsched.api.framework;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * Labels as {@link PodInfo} and {@link NodeInfo} keep them: an immutable open-addressed map of
 * interned strings. Selectors intern theirs too, so matching compares by identity first, and one
 * object's labels are one array instead of a chain of entries. Affinity and spreading walk every
 * node's and pod's labels per attempt; objects decoded from JSON one event at a time are scattered
 * over the heap, and each pointer followed is a cache miss.
 */
final class InternedLabels {

    private InternedLabels() {}

    static Map<String, String> of(Map<String, String> labels) {
        if (labels == null || labels.isEmpty()) {
            return Map.of();
        }
        Map<String, String> interned = new HashMap<>(labels.size() * 2);
        for (Map.Entry<String, String> e : labels.entrySet()) {
            if (e.getKey() == null || e.getValue() == null) {
                // not a valid label: kept as given rather than dropped
                return Collections.unmodifiableMap(labels);
            }
            interned.put(e.getKey().intern(), e.getValue().intern());
        }
        return Map.copyOf(interned);
    }
}
