package io.hotsched.embedded;

import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;

/**
 * One open watch: which store writes it sees (its collection, its selector, with kube-apiserver's
 * rule that an object that stops matching is DELETED and one that starts matching ADDED), and the
 * events it sends, one JSON WatchEvent each. Events wait here until the stream is attached (an
 * HTTP response or a WebSocket), so none is lost between the watch being registered, under the
 * store's read lock, and the connection being ready. An event is the stored JSON inside an
 * envelope: no parse, unless a field selector or a Table needs the object.
 */
final class Watch {

    /** Where the events go. */
    interface Sink {
        void send(String event);

        void end();
    }

    private final Watches owner;
    private final AttributeSet collection;
    private final Selector selector;
    private final TableEvents table;
    private final String bookmarkHead;
    private final boolean bookmarks;
    private final long timeoutMillis;

    private final List<String> pending = new ArrayList<>();
    private final List<Runnable> onFinish = new ArrayList<>();
    private Sink sink;
    /** What each event becomes on the wire (another API's view of the same objects: events.k8s.io). */
    private java.util.function.UnaryOperator<String> frames = java.util.function.UnaryOperator.identity();

    private boolean ending;
    private boolean finished;

    /**
     * @param kind the group-version and kind the collection holds, for bookmarks (null: not known)
     * @param table how objects become Table rows, or null to send them as they are stored
     */
    Watch(
            Watches owner,
            AttributeSet collection,
            Selector selector,
            TableEvents table,
            String[] kind,
            boolean bookmarks,
            long timeoutMillis) {
        this.owner = owner;
        this.collection = collection;
        this.selector = selector;
        this.table = table;
        this.bookmarkHead = kind == null ? "{" : "{\"kind\":\"" + kind[1] + "\",\"apiVersion\":\"" + kind[0] + "\",";
        // a client reads a bookmark as an object of the watched kind: without a kind to name, none
        // is sent but the one that ends the initial events (upstream sends them at its discretion)
        this.bookmarks = bookmarks && kind != null;
        this.timeoutMillis = timeoutMillis;
    }

    /** The store's query for what is watched: a collection (maybe in one namespace), or one object. */
    AttributeSet collection() {
        return collection;
    }

    boolean wantsBookmarks() {
        return bookmarks;
    }

    /** The watch's {@code timeoutSeconds} in ms, 0 for none. */
    long timeoutMillis() {
        return timeoutMillis;
    }

    long bookmarkMillis() {
        return owner.bookmarkMillis();
    }

    /** The event {@code e} means to this watch, if any. */
    void offer(StoreEvent e) {
        boolean was = e.oldKey != null && in(e.oldKey, e::oldObject);
        boolean is = e.newKey != null && in(e.newKey, e::newObject);
        if (was && is) {
            emit("MODIFIED", e.newJson, e::newObject);
        } else if (was) {
            emit("DELETED", e.deletedJson(), e::oldObject);
        } else if (is) {
            emit("ADDED", e.newJson, e::newObject);
        }
    }

    private boolean in(AttributeSet key, Supplier<JsonNode> object) {
        return key.matches(collection) && selector.matches(key, object);
    }

    private void emit(String type, String json, Supplier<JsonNode> object) {
        deliver(event(type, table == null ? json : table.row(object.get())));
    }

    /** A BOOKMARK at {@code resourceVersion}; {@code initialEventsEnd} marks the end of the initial events. */
    void bookmark(long resourceVersion, boolean initialEventsEnd) {
        deliver(event(
                "BOOKMARK",
                bookmarkHead + "\"metadata\":{\"resourceVersion\":\"" + resourceVersion + "\""
                        + (initialEventsEnd ? ",\"annotations\":{\"k8s.io/initial-events-end\":\"true\"}" : "")
                        + "}}"));
    }

    /** A periodic bookmark is due (on the connection's thread). */
    void tick() {
        owner.bookmark(this);
    }

    /** The only event: an ERROR with kube-apiserver's 410 for a version the event log no longer covers. */
    void expired(long requested, long oldest) {
        deliver(event(
                "ERROR",
                StatusJson.status(
                        410, "Expired", "too old resource version: " + requested + " (" + (oldest + 1) + ")")));
        end();
    }

    private static String event(String type, String object) {
        return "{\"type\":\"" + type + "\",\"object\":" + object + "}";
    }

    private synchronized void deliver(String event) {
        if (finished || ending) {
            return;
        }
        if (sink == null) {
            pending.add(event);
        } else {
            sink.send(frames.apply(event));
        }
    }

    /** Sends each event as {@code convert} makes it (before the watch is attached). */
    synchronized void converting(java.util.function.UnaryOperator<String> convert) {
        frames = convert;
    }

    /** Sends the waiting events to {@code s} and from now on every event. */
    void attach(Sink s) {
        boolean end;
        synchronized (this) {
            if (finished) {
                s.end();
                return;
            }
            sink = s;
            pending.forEach(e -> s.send(frames.apply(e)));
            pending.clear();
            end = ending;
        }
        if (end) {
            finish(true);
        }
    }

    /** Runs {@code r} once the watch is over (to stop its timers). */
    synchronized void onFinish(Runnable r) {
        onFinish.add(r);
    }

    /** The server ends the watch (timeout, expiry, shutdown): the stream ends cleanly. */
    void end() {
        synchronized (this) {
            if (sink == null) {
                // attach ends it, after the waiting events
                ending = true;
                owner.remove(this);
                return;
            }
        }
        finish(true);
    }

    /** The client went: nothing more is sent. */
    void close() {
        finish(false);
    }

    private void finish(boolean endStream) {
        List<Runnable> then;
        Sink s;
        synchronized (this) {
            if (finished) {
                return;
            }
            finished = true;
            s = sink;
            then = new ArrayList<>(onFinish);
            pending.clear();
        }
        owner.remove(this);
        if (endStream && s != null) {
            s.end();
        }
        then.forEach(Runnable::run);
    }

    /** The watch a dispatcher's answer carries, or null when it is not a watch. */
    static Watch carried(MockResponse answer) {
        return answer.getWebSocketListener() instanceof Answer a ? a.watch : null;
    }

    /** The answer that carries {@code watch} (as a WebSocket upgrade, the one way a MockResponse can). */
    MockResponse answer() {
        return new MockResponse().withWebSocketUpgrade(new Answer(this));
    }

    /** Also serves the watch through the mock server's own WebSocket handling. */
    private static final class Answer extends WebSocketListener {
        private final Watch watch;

        Answer(Watch watch) {
            this.watch = watch;
        }

        @Override
        public void onOpen(WebSocket ws, Response response) {
            watch.attach(new Sink() {
                @Override
                public void send(String event) {
                    ws.send(event);
                }

                @Override
                public void end() {
                    ws.close(1000, "");
                }
            });
        }

        @Override
        public void onClosed(WebSocket ws, int code, String reason) {
            watch.close();
        }

        @Override
        public void onFailure(WebSocket ws, Throwable t, Response response) {
            watch.close();
        }
    }
}
