package io.hotsched.core.scheduler;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The nominations the status writer has still to write, by pod UID. A preemptor's
 * {@code nominatedNodeName} is written off the scheduling thread; with pop from backoffQ the pod
 * may be tried again at once and bound to that node before the write lands, so nobody outside ever
 * sees the nomination (upstream writes it in the failure handler, before the pod can be popped).
 * The binding cycle waits on {@link #written} before it binds.
 */
final class PendingNominations {

    private static final CompletableFuture<Void> NONE = CompletableFuture.completedFuture(null);

    private final Map<String, CompletableFuture<Void>> pending = new ConcurrentHashMap<>();

    /** A nomination of the pod is about to be handed to the status writer. */
    CompletableFuture<Void> track(String uid) {
        CompletableFuture<Void> f = new CompletableFuture<>();
        pending.put(uid, f);
        return f;
    }

    /** The write was done or given up (an API fault, the scheduler stopping): nobody waits on it any more. */
    void done(String uid, CompletableFuture<Void> f) {
        pending.remove(uid, f);
        f.complete(null);
    }

    /** Completes when the pod's last nomination handed to the writer has been written; at once if none is pending. */
    CompletableFuture<Void> written(String uid) {
        CompletableFuture<Void> f = pending.get(uid);
        return f == null ? NONE : f;
    }

    int size() {
        return pending.size();
    }
}
