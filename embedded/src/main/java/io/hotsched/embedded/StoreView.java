package io.hotsched.embedded;

import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;

/** What watches and versioned lists read of fabric8's store: its objects, its version, its read lock. */
final class StoreView {

    private final KubernetesCrudDispatcher store;
    private final Map<AttributeSet, String> map;
    private final Lock readLock;
    private final AtomicLong version;

    StoreView(KubernetesCrudDispatcher store, Map<AttributeSet, String> map) {
        this.store = store;
        this.map = map;
        this.readLock = StoreFields.lock(store).readLock();
        this.version = StoreFields.resourceVersion(store);
    }

    /** Held while reading the store and the event log together: no write comes between. */
    Lock readLock() {
        return readLock;
    }

    /** The store's resource version now (what a list answered now would carry). */
    long resourceVersion() {
        return version.get();
    }

    /** The objects of the collection (or the one object) {@code path} names, with their keys. */
    List<Map.Entry<AttributeSet, String>> entries(AttributeSet collection) {
        List<Map.Entry<AttributeSet, String>> out = new ArrayList<>();
        for (Map.Entry<AttributeSet, String> e : new ArrayList<>(map.entrySet())) {
            if (e.getKey().matches(collection)) {
                out.add(e);
            }
        }
        return out;
    }

    /** The one value of attribute {@code name} of a store key, or null when it has none. */
    static String attribute(AttributeSet key, String name) {
        Attribute a = key == null ? null : key.getAttribute(name);
        return a == null || a.getValues().isEmpty()
                ? null
                : a.getValues().get(0).toString();
    }

    /** The store's query for the collection or object of {@code path}, without its query string. */
    AttributeSet collection(String path) {
        int q = path.indexOf('?');
        return store.getAttributeExtractor().fromPath(q < 0 ? path : path.substring(0, q));
    }
}
