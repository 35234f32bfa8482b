package io.hotsched.core.scheduler;

import io.hotsched.api.framework.Parallelizer;
import io.hotsched.core.runtime.ParallelizerImpl;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

/** The worker pool, replaced when a configuration changes {@code parallelism}. */
final class SwitchableParallelizer implements Parallelizer {

    private volatile ParallelizerImpl current;

    SwitchableParallelizer(int parallelism) {
        this.current = new ParallelizerImpl(parallelism, "hotsched-worker");
    }

    /** Uses a pool of {@code parallelism} threads from now on; the old pool closes after a grace period. */
    void resize(int parallelism, ScheduledExecutorService later) {
        ParallelizerImpl old = current;
        if (old.parallelism() == parallelism) {
            return;
        }
        current = new ParallelizerImpl(parallelism, "hotsched-worker");
        later.schedule(old::close, 30, TimeUnit.SECONDS);
    }

    @Override
    public void until(int pieces, IntConsumer piece) {
        current.until(pieces, piece);
    }

    @Override
    public int parallelism() {
        return current.parallelism();
    }

    /**
     * A worker more while {@code stuck}, one of the current pool's workers, is in a call the
     * scheduler gave up on; null when {@code stuck} is not one. Run the result when the call returns.
     */
    Runnable lendFor(Thread stuck) {
        ParallelizerImpl p = current;
        return p.owns(stuck) ? p.lend() : null;
    }

    /** The current pool's worker threads. */
    Set<Thread> workers() {
        return current.workers();
    }

    void close() {
        current.close();
    }
}
