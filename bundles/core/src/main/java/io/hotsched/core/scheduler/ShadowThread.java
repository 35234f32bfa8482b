package io.hotsched.core.scheduler;

import io.hotsched.api.framework.NodeInfo;
import io.hotsched.core.runtime.CallWatch;
import io.hotsched.core.runtime.Snapshot;
import java.util.Arrays;
import java.util.concurrent.BlockingQueue;

/**
 * One thread taking the shadows' work from their queue, with the snapshot it brings up to date for
 * it. A thread stuck in a plugin call past its time-out is replaced, not stopped (Java cannot stop
 * it safely): it finishes the work it is in when the call returns, then ends, while a new one
 * takes the queue.
 */
final class ShadowThread implements Runnable {

    /** Work for the shadow thread, given the thread that runs it. */
    interface Job {
        void run(ShadowThread on);
    }

    private final BlockingQueue<Job> jobs;
    private final CallWatch watch;
    private final Thread thread;
    private volatile boolean replaced;
    /** Touched by this thread only. */
    private final Snapshot frozen = new Snapshot();

    private NodeInfo[] frozenNodes;

    /** @param watch where its plugin calls are marked for the watchdog (not measured); null: not watched */
    ShadowThread(BlockingQueue<Job> jobs, CallWatch watch, String name) {
        this.jobs = jobs;
        this.watch = watch;
        this.thread = new Thread(this, name);
        thread.setDaemon(true);
    }

    ShadowThread start() {
        thread.start();
        return this;
    }

    Thread thread() {
        return thread;
    }

    /** Ends once the work it is in is done: a new thread takes the queue. */
    void replace() {
        replaced = true;
    }

    /** Ends it now (the scheduler stops). */
    void stop() {
        replaced = true;
        thread.interrupt();
    }

    @Override
    public void run() {
        if (watch != null) {
            watch.unmeasured();
        }
        while (!replaced) {
            Job job;
            try {
                job = jobs.take();
            } catch (InterruptedException e) {
                return;
            }
            job.run(this);
        }
    }

    /** This thread's snapshot brought to {@code nodes}: only the nodes replaced since its last pod are changed. */
    Snapshot freeze(NodeInfo[] nodes) {
        NodeInfo[] last = frozenNodes;
        boolean same = last != null && last.length == nodes.length;
        for (int i = 0; same && i < nodes.length; i++) {
            same = last[i] == nodes[i] || last[i].name().equals(nodes[i].name());
        }
        if (!same) {
            frozen.rebuild(Arrays.asList(nodes), 0);
        } else {
            for (int i = 0; i < nodes.length; i++) {
                if (last[i] != nodes[i]) {
                    frozen.replace(nodes[i], 0);
                }
            }
        }
        frozenNodes = nodes;
        return frozen;
    }
}
