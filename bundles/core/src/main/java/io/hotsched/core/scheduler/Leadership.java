package io.hotsched.core.scheduler;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this replica may schedule and bind now. A replica that is not leading pops no pod for
 * long and binds none: a binding cycle that lost the lease fails, and the new leader schedules its
 * pod.
 */
final class Leadership {

    private static final Logger LOG = LoggerFactory.getLogger(Leadership.class);

    private final Object lock = new Object();
    private volatile boolean leading = true;

    boolean leading() {
        return leading;
    }

    void set(boolean nowLeading) {
        synchronized (lock) {
            if (leading != nowLeading) {
                LOG.info(nowLeading ? "Leading: scheduling" : "Not leading: scheduling stopped");
            }
            leading = nowLeading;
            lock.notifyAll();
        }
    }

    /** Returns once leading, or after a second so that the caller can see whether it should stop. */
    void await() throws InterruptedException {
        synchronized (lock) {
            if (!leading) {
                lock.wait(1000);
            }
        }
    }
}
