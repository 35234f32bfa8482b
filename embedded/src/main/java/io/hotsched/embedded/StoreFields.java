package io.hotsched.embedded;

import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReadWriteLock;

/**
 * Two private fields of fabric8's CRUD dispatcher (8.0.0): the lock its handlers write under and
 * its resource version counter. Watches and versioned lists need both, to read the store and the
 * event log as of one version, and the dispatcher offers neither (its
 * {@code requestResourceVersion()} moves the counter on).
 */
final class StoreFields {

    private StoreFields() {}

    static ReadWriteLock lock(KubernetesCrudDispatcher store) {
        return (ReadWriteLock) field(store, "lock");
    }

    static AtomicLong resourceVersion(KubernetesCrudDispatcher store) {
        return (AtomicLong) field(store, "resourceVersion");
    }

    private static Object field(KubernetesCrudDispatcher store, String name) {
        try {
            java.lang.reflect.Field f = KubernetesCrudDispatcher.class.getDeclaredField(name);
            f.setAccessible(true);
            return f.get(store);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException(
                    "fabric8's KubernetesCrudDispatcher has no field '" + name + "' (a version other than 8.0.0?)", e);
        }
    }
}
