package io.hotsched.core.scheduler;

import java.util.ArrayDeque;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs binding cycles, at most {@code slots} at once (the {@code bindingThreads} setting). A
 * binding cycle stuck in a plugin call past its time-out gives its slot back early ({@link
 * #release}), as upstream's context cancellation frees a goroutine's place: the next binding starts
 * on another thread while the stuck one finishes on its own. Threads are made as needed and end
 * after a minute idle; there are at most {@code slots} plus the stuck ones.
 */
final class BindingSlots implements Executor {

    private final int slots;
    private final ThreadPoolExecutor threads;
    private final Queue<Runnable> waiting = new ArrayDeque<>();
    /** The slot each running binding holds, by its thread; true once given back. */
    private final Map<Thread, AtomicBoolean> held = new ConcurrentHashMap<>();

    private int running;

    BindingSlots(int slots, String threadName) {
        this.slots = Math.max(1, slots);
        AtomicInteger n = new AtomicInteger();
        this.threads =
                new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
                    Thread t = new Thread(r, threadName + "-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
    }

    @Override
    public void execute(Runnable task) {
        synchronized (this) {
            if (running >= slots) {
                waiting.add(task);
                return;
            }
            running++;
        }
        start(task);
    }

    private void start(Runnable task) {
        threads.execute(() -> {
            AtomicBoolean slot = new AtomicBoolean();
            held.put(Thread.currentThread(), slot);
            try {
                task.run();
            } finally {
                held.remove(Thread.currentThread());
                giveBack(slot);
            }
        });
    }

    /** Gives back the slot of the binding running on {@code thread}; false when it holds none. */
    boolean release(Thread thread) {
        AtomicBoolean slot = held.get(thread);
        return slot != null && giveBack(slot);
    }

    private boolean giveBack(AtomicBoolean slot) {
        if (!slot.compareAndSet(false, true)) {
            return false;
        }
        Runnable next;
        synchronized (this) {
            next = waiting.poll();
            if (next == null) {
                running--;
                return true;
            }
        }
        start(next);
        return true;
    }

    /** Stops taking bindings; waits up to {@code millis} for the running ones, then interrupts them. */
    void close(long millis) {
        synchronized (this) {
            waiting.clear();
        }
        threads.shutdown();
        try {
            threads.awaitTermination(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        threads.shutdownNow();
    }
}
