package io.hotsched.plugins.deviceshare;

import io.hotsched.api.framework.Reservations;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Allocations made at Reserve whose pods do not carry the device-allocated annotation in the
 * snapshot yet (the assumed pod is the one from before PreBind; the annotated one arrives with
 * the informer's update). Without them two pods could be given the same device in that gap.
 * An entry ends at Unreserve, when the snapshot's pod shows the annotation, or after
 * {@link #TTL} (a pod deleted between binding and the informer's update).
 */
final class InFlight {

    static final Duration TTL = Duration.ofMinutes(10);

    record Entry(String node, Map<String, List<GpuMemoryFill.Allocation>> allocations, Instant at) {}

    private final Map<String, Entry> byPodUid = new ConcurrentHashMap<>();

    /** The other instances' records by pod uid ({@code key}: the allocations' annotation text). */
    static Map<String, Entry> of(List<Reservations.Reservation> records, String key) {
        if (records.isEmpty()) {
            return Map.of();
        }
        Map<String, Entry> out = new HashMap<>();
        for (Reservations.Reservation r : records) {
            String text = r.entries().get(key);
            Map<String, List<GpuMemoryFill.Allocation>> a = text == null ? null : AllocationAnnotation.parse(text);
            if (a != null) {
                out.put(r.podUid(), new Entry(r.node(), a, Instant.EPOCH));
            }
        }
        return out;
    }

    void put(String uid, Entry e) {
        byPodUid.put(uid, e);
    }

    void remove(String uid) {
        byPodUid.remove(uid);
    }

    /** The allocation reserved for the pod on {@code node}, or null. */
    Map<String, List<GpuMemoryFill.Allocation>> on(String uid, String node) {
        Entry e = byPodUid.get(uid);
        return e != null && e.node().equals(node) ? e.allocations() : null;
    }

    void expire(Instant now) {
        byPodUid.values().removeIf(e -> e.at().plus(TTL).isBefore(now));
    }

    int size() {
        return byPodUid.size();
    }

    Map<String, Entry> view() {
        return Map.copyOf(byPodUid);
    }
}
