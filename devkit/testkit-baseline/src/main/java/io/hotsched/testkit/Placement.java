package io.hotsched.testkit;

import java.util.Map;
import java.util.TreeMap;

/**
 * Where a set of pods went: per pod key ({@code namespace/name}), the node it was bound to, or the
 * message the scheduler wrote on its {@code PodScheduled=False} condition.
 */
public record Placement(Map<String, String> nodes, Map<String, String> pending) {

    public Placement {
        nodes = Map.copyOf(nodes);
        pending = Map.copyOf(pending);
    }

    /** The node {@code pod} (a key, or a name in namespace default) was bound to, or null. */
    public String nodeOf(String pod) {
        return nodes.get(key(pod));
    }

    /** Why {@code pod} is pending, or null when it was bound. */
    public String reasonOf(String pod) {
        return pending.get(key(pod));
    }

    private static String key(String pod) {
        return pod.contains("/") ? pod : "default/" + pod;
    }

    @Override
    public String toString() {
        Map<String, String> all = new TreeMap<>();
        nodes.forEach((pod, node) -> all.put(pod, "-> " + node));
        pending.forEach((pod, why) -> all.put(pod, "pending: " + why));
        StringBuilder b = new StringBuilder();
        all.forEach((pod, what) -> b.append(pod).append(' ').append(what).append('\n'));
        return b.toString();
    }
}
