package io.hotsched.core.scheduler;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The threads on which plugins' work outlives the scheduling cycle (asynchronous preemption's API
 * calls, upstream's goroutines): plugins own no threads. A few threads; a task that throws is
 * logged and the others go on; once the scheduler stops, new tasks are dropped with a log line.
 */
final class BackgroundWork implements Executor {

    private static final Logger LOG = LoggerFactory.getLogger(BackgroundWork.class);

    private final ThreadPoolExecutor pool;

    BackgroundWork(int threads, String threadName) {
        AtomicInteger n = new AtomicInteger();
        this.pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, threadName + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        pool.allowCoreThreadTimeOut(true);
    }

    @Override
    public void execute(Runnable task) {
        try {
            pool.execute(() -> {
                try {
                    task.run();
                } catch (RuntimeException | LinkageError e) {
                    LOG.error("A plugin's background task failed: {}", e.toString(), e);
                }
            });
        } catch (RejectedExecutionException e) {
            LOG.warn("A plugin's background task was dropped, the scheduler has stopped: {}", task);
        }
    }

    /** Tasks still running are interrupted; their API calls end on their time-outs. */
    void stop() {
        pool.shutdownNow();
    }
}
