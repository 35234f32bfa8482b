package io.hotsched.embedded.standins;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The creations and deletions a controller sent for an owner and has not yet seen in its cache, as
 * upstream's ControllerExpectations: until they arrive, the cache undercounts (or overcounts) the
 * owner's pods, and a reconcile would create (or delete) them twice.
 */
final class Expectations {

    private final ConcurrentHashMap<String, AtomicInteger> creations = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, AtomicInteger> deletions = new ConcurrentHashMap<>();

    void expectCreations(String ownerUid, int n) {
        creations.computeIfAbsent(ownerUid, k -> new AtomicInteger()).addAndGet(n);
    }

    void expectDeletions(String ownerUid, int n) {
        deletions.computeIfAbsent(ownerUid, k -> new AtomicInteger()).addAndGet(n);
    }

    /** A creation was seen in the cache, or failed and will never be. */
    void created(String ownerUid) {
        lower(creations, ownerUid);
    }

    /** A deletion was seen in the cache, or failed and will never be. */
    void deleted(String ownerUid) {
        lower(deletions, ownerUid);
    }

    boolean satisfied(String ownerUid) {
        return zero(creations, ownerUid) && zero(deletions, ownerUid);
    }

    void forget(String ownerUid) {
        creations.remove(ownerUid);
        deletions.remove(ownerUid);
    }

    private static void lower(ConcurrentHashMap<String, AtomicInteger> m, String uid) {
        AtomicInteger n = m.get(uid);
        if (n != null && n.decrementAndGet() <= 0) {
            m.remove(uid, n);
        }
    }

    private static boolean zero(ConcurrentHashMap<String, AtomicInteger> m, String uid) {
        AtomicInteger n = m.get(uid);
        return n == null || n.get() <= 0;
    }
}
