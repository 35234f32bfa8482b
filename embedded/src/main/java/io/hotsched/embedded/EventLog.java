package io.hotsched.embedded;

import java.util.ArrayList;
import java.util.List;

/**
 * The latest writes to the store, oldest first, as kube-apiserver's watch cache keeps them: a
 * watch from a resource version replays what came after it, and a list at an older version is the
 * store with the later writes undone. Only the last {@code capacity} writes are kept; a version
 * older than the oldest dropped one is "too old" (410 Expired), as a compacted one is upstream.
 * Appended on the store's write path (under its write lock); read under its read lock.
 */
final class EventLog {

    /** Writes kept: at a few thousand writes a second, several seconds of them, some MB of JSON. */
    static final int DEFAULT_CAPACITY = 16 * 1024;

    private final StoreEvent[] ring;
    private int first;
    private int size;
    private long dropped;
    private long last;

    EventLog(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("an event log keeps at least 1 write, not " + capacity);
        }
        ring = new StoreEvent[capacity];
    }

    synchronized void append(StoreEvent e) {
        if (size == ring.length) {
            dropped = ring[first].resourceVersion;
            ring[first] = null;
            first = (first + 1) % ring.length;
            size--;
        }
        ring[(first + size) % ring.length] = e;
        size++;
        last = e.resourceVersion;
    }

    /** Whether every write after {@code resourceVersion} is still here. */
    synchronized boolean covers(long resourceVersion) {
        return resourceVersion >= dropped;
    }

    /** The oldest version a watch or list may start from (for "too old" messages). */
    synchronized long oldest() {
        return dropped;
    }

    /** The writes after {@code resourceVersion}, oldest first. */
    synchronized List<StoreEvent> after(long resourceVersion) {
        int lo = 0;
        int hi = size;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (at(mid).resourceVersion <= resourceVersion) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        List<StoreEvent> out = new ArrayList<>(size - lo);
        for (int i = lo; i < size; i++) {
            out.add(at(i));
        }
        return out;
    }

    /** Forgets every write: versions before the last one can no longer be served. */
    synchronized void clear() {
        java.util.Arrays.fill(ring, null);
        dropped = last;
        first = 0;
        size = 0;
    }

    private StoreEvent at(int i) {
        return ring[(first + i) % ring.length];
    }
}
