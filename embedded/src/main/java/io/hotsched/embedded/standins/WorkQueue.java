package io.hotsched.embedded.standins;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One controller's queue of object keys ({@code namespace/name}) to reconcile, on one thread: a key
 * queued again before it ran runs once, and a reconcile that throws runs again after a short
 * back-off (a conflict or a server that is busy), as client-go's rate-limited work queue does.
 */
final class WorkQueue implements AutoCloseable {

    private static final long FIRST_RETRY_MS = 50;
    private static final long MAX_RETRY_MS = 5_000;

    private final ScheduledExecutorService thread;
    private final Consumer<String> reconcile;
    private final Set<String> pending = ConcurrentHashMap.newKeySet();
    private final ConcurrentHashMap<String, Long> failures = new ConcurrentHashMap<>();

    WorkQueue(String name, Consumer<String> reconcile) {
        this.reconcile = reconcile;
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "embedded-" + name);
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * An informer handler that queues the key of each object added or updated and hands each
     * deleted one to {@code deleted}.
     */
    <T extends HasMetadata> ResourceEventHandler<T> keysOf(Consumer<T> deleted) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T o) {
                add(Ownership.key(o));
            }

            @Override
            public void onUpdate(T old, T o) {
                add(Ownership.key(o));
            }

            @Override
            public void onDelete(T o, boolean unknownFinalState) {
                deleted.accept(o);
            }
        };
    }

    void add(String key) {
        if (pending.add(key)) {
            submit(key, 0);
        }
    }

    /** Queues {@code key} once {@code delay} has passed (a state that expires by itself). */
    void addAfter(String key, java.time.Duration delay) {
        submit(key, delay.toMillis());
    }

    private void submit(String key, long delayMs) {
        try {
            thread.schedule(() -> run(key), delayMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // closed: the server is stopping
        }
    }

    private void run(String key) {
        pending.remove(key);
        try {
            reconcile.accept(key);
            failures.remove(key);
        } catch (RuntimeException e) {
            if (thread.isShutdown()) {
                return;
            }
            long n = failures.merge(key, 1L, Long::sum);
            if (pending.add(key)) {
                submit(key, Math.min(MAX_RETRY_MS, FIRST_RETRY_MS << Math.min(n - 1, 10)));
            }
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
