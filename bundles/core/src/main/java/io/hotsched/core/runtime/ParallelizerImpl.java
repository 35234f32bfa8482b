package io.hotsched.core.runtime;

import io.hotsched.api.framework.Parallelizer;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

/**
 * Runs pieces of work on a fixed pool of {@code parallelism} threads, the calling thread working
 * too. Pieces are handed out by an atomic counter, so uneven pieces balance themselves.
 */
public final class ParallelizerImpl implements Parallelizer, AutoCloseable {

    private final int parallelism;
    private final ThreadPoolExecutor pool;
    private final Set<Thread> workers = ConcurrentHashMap.newKeySet();

    public ParallelizerImpl(int parallelism, String threadName) {
        this.parallelism = Math.max(1, parallelism);
        AtomicInteger n = new AtomicInteger();
        ThreadFactory tf = r -> {
            Thread t = new Thread(
                    () -> {
                        try {
                            r.run();
                        } finally {
                            workers.remove(Thread.currentThread());
                        }
                    },
                    threadName + "-" + n.incrementAndGet());
            t.setDaemon(true);
            workers.add(t);
            return t;
        };
        this.pool = this.parallelism > 1
                ? new ThreadPoolExecutor(
                        this.parallelism - 1,
                        this.parallelism - 1,
                        0,
                        TimeUnit.MILLISECONDS,
                        new LinkedBlockingQueue<>(),
                        tf)
                : null;
    }

    @Override
    public int parallelism() {
        return parallelism;
    }

    @Override
    public void until(int pieces, IntConsumer piece) {
        if (pieces <= 0) {
            return;
        }
        AtomicInteger next = new AtomicInteger();
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        Runnable worker = () -> {
            int i;
            while ((i = next.getAndIncrement()) < pieces) {
                try {
                    piece.accept(i);
                } catch (RuntimeException | Error e) {
                    failure.compareAndSet(null, e instanceof RuntimeException re ? re : new IllegalStateException(e));
                }
            }
        };
        int helpers = pool == null ? 0 : Math.min(parallelism - 1, pieces - 1);
        HelperCount active = new HelperCount();
        for (int h = 0; h < helpers; h++) {
            pool.execute(() -> {
                // a helper that starts after the caller has taken the last piece does nothing; the
                // caller does not wait for it, so nested calls from pool threads cannot deadlock
                if (active.join()) {
                    try {
                        worker.run();
                    } finally {
                        active.leave();
                    }
                }
            });
        }
        worker.run();
        active.closeAndAwait();
        RuntimeException e = failure.get();
        if (e != null) {
            throw e;
        }
    }

    /**
     * Adds a worker while one of ours is stuck in a plugin call the scheduler gave up on, so that
     * the next attempts still have {@code parallelism} threads; the returned action takes it away
     * again (run it when the stuck call returns).
     */
    public Runnable lend() {
        if (pool == null) {
            return NOTHING;
        }
        synchronized (pool) {
            pool.setMaximumPoolSize(pool.getMaximumPoolSize() + 1);
            pool.setCorePoolSize(pool.getCorePoolSize() + 1);
        }
        return () -> {
            synchronized (pool) {
                // an idle surplus thread ends by itself once the sizes shrink
                pool.setCorePoolSize(pool.getCorePoolSize() - 1);
                pool.setMaximumPoolSize(pool.getMaximumPoolSize() - 1);
            }
        };
    }

    private static final Runnable NOTHING = () -> {};

    /** True when {@code t} is one of this pool's workers. */
    public boolean owns(Thread t) {
        return workers.contains(t);
    }

    /** This pool's worker threads now (for the CPU time they take). */
    public Set<Thread> workers() {
        return Set.copyOf(workers);
    }

    /** Workers now in the pool (the calling thread not counted). */
    public int poolSize() {
        return pool == null ? 0 : pool.getPoolSize();
    }

    @Override
    public void close() {
        if (pool != null) {
            pool.shutdownNow();
        }
    }

    /** Helpers working on one call; after {@link #closeAndAwait()} no helper joins any more. */
    private static final class HelperCount {
        private int active;
        private boolean closed;

        synchronized boolean join() {
            if (closed) {
                return false;
            }
            active++;
            return true;
        }

        synchronized void leave() {
            active--;
            notifyAll();
        }

        synchronized void closeAndAwait() {
            closed = true;
            boolean interrupted = false;
            while (active > 0) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
