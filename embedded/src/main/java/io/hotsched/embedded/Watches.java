package io.hotsched.embedded;

import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.Lock;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The open watches, and how a watch starts, as kube-apiserver starts one: without a resource
 * version (or with "0") an ADDED event for each object there is, then the changes; from a
 * version, the writes after it replayed from the {@link EventLog} (or, when the log no longer
 * reaches back that far, one ERROR event with a 410 Expired, after which clients list again);
 * {@code sendInitialEvents=true} sends the objects there are and then a BOOKMARK annotated
 * {@code k8s.io/initial-events-end}. A watch is started under the store's read lock, so no write
 * falls between what it replays and what it is sent live.
 */
final class Watches {

    /** kube-apiserver's watch cache sends a bookmark about once a minute. */
    static final long BOOKMARK_MILLIS = 60_000;

    private final StoreView store;
    private final EventLog log;
    /** The open watches by the plural they watch: a write is offered to those of its kind only. */
    private final Map<String, List<Watch>> open = new ConcurrentHashMap<>();

    private final long bookmarkMillis;

    /** The Table rows of a path's objects when {@link Tables} does not print them (custom resources'), or null. */
    private volatile java.util.function.Function<String, java.util.function.Function<JsonNode, ObjectNode>> rows =
            path -> null;

    Watches(StoreView store, EventLog log, long bookmarkMillis) {
        this.store = store;
        this.log = log;
        this.bookmarkMillis = bookmarkMillis;
    }

    /** The answer to a watch request: a {@link Watch} for the server to stream, or an error. */
    MockResponse open(RecordedRequest request) {
        String path = request.getPath();
        ListParams params;
        Selector selector;
        long from;
        try {
            params = ListParams.of(path);
            selector = Selector.of(params);
            from = params.version();
        } catch (ListParams.Bad e) {
            return e.answer;
        }
        MockResponse invalid = params.invalid();
        if (invalid != null) {
            return invalid;
        }
        TableEvents table = null;
        if (Tables.wanted(request.getHeader("Accept"))) {
            java.util.function.Function<JsonNode, ObjectNode> custom = Tables.served(path) ? null : rows.apply(path);
            table = Tables.served(path) ? new TableEvents(path) : custom != null ? new TableEvents(custom) : null;
        }
        Watch w = new Watch(
                this,
                store.collection(path),
                selector,
                table,
                Discovery.kindAt(path.split("\\?", 2)[0]),
                params.allowWatchBookmarks,
                params.timeoutSeconds * 1000);
        Lock lock = store.readLock();
        lock.lock();
        try {
            boolean initial = params.sendInitialEvents != null ? params.sendInitialEvents : from <= 0;
            if (initial) {
                for (Map.Entry<AttributeSet, String> e : store.entries(w.collection())) {
                    w.offer(new StoreEvent(0, null, null, e.getKey(), e.getValue()));
                }
            } else if (from > 0) {
                if (!log.covers(from)) {
                    w.expired(from, log.oldest());
                    return w.answer();
                }
                for (StoreEvent e : log.after(from)) {
                    w.offer(e);
                }
            }
            if (Boolean.TRUE.equals(params.sendInitialEvents) && params.allowWatchBookmarks) {
                w.bookmark(store.resourceVersion(), true);
            }
            open.computeIfAbsent(plural(w.collection()), k -> new CopyOnWriteArrayList<>())
                    .add(w);
        } finally {
            lock.unlock();
        }
        changed();
        return w.answer();
    }

    /** How watches of Tables print the objects of paths {@link Tables} does not know ({@link CustomResources}). */
    void rows(java.util.function.Function<String, java.util.function.Function<JsonNode, ObjectNode>> f) {
        rows = f;
    }

    /** Sends {@code e} to the watches that see it (on the store's write path). */
    void publish(StoreEvent e) {
        List<Watch> watching = open.get(plural(e.newKey != null ? e.newKey : e.oldKey));
        if (watching != null) {
            for (Watch w : watching) {
                w.offer(e);
            }
        }
    }

    /** A periodic bookmark for {@code w}, at a version every event before it has been sent for. */
    void bookmark(Watch w) {
        Lock lock = store.readLock();
        lock.lock();
        try {
            w.bookmark(store.resourceVersion(), false);
        } finally {
            lock.unlock();
        }
    }

    long bookmarkMillis() {
        return bookmarkMillis;
    }

    void remove(Watch w) {
        List<Watch> watching = open.get(plural(w.collection()));
        if (watching != null) {
            watching.remove(w);
        }
        changed();
    }

    /** The watches open now. */
    int size() {
        return open.values().stream().mapToInt(List::size).sum();
    }

    private synchronized void changed() {
        notifyAll();
    }

    /**
     * Waits, at most {@code millis}, until the number of open watches satisfies {@code test}
     * (woken by each watch opened or removed); whether it does.
     */
    synchronized boolean awaitSize(java.util.function.IntPredicate test, long millis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + millis;
        while (!test.test(size())) {
            long left = deadline - System.currentTimeMillis();
            if (left <= 0) {
                return false;
            }
            wait(left);
        }
        return true;
    }

    private static String plural(AttributeSet key) {
        String plural = StoreView.attribute(key, StoreIndex.PLURAL);
        return plural == null ? "" : plural;
    }
}
