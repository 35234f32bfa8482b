package io.hotsched.core.osgi.testbundle.leaky;

import java.util.concurrent.CountDownLatch;
import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;

/** A bundle's activator that starts two threads and forgets them when it stops. Packed into a test bundle. */
public final class LeakyActivator implements BundleActivator {

    /** A thread class of the bundle's own. */
    static final class Worker extends Thread {
        Worker() {
            super("leaky-subclass");
            setDaemon(true);
        }

        @Override
        public void run() {
            waitForInterrupt();
        }
    }

    @Override
    public void start(BundleContext context) {
        Thread t = new Thread(LeakyActivator::waitForInterrupt, "leaky-runnable");
        t.setDaemon(true);
        t.start();
        new Worker().start();
    }

    @Override
    public void stop(BundleContext context) {
        // forgets its threads
    }

    /** Nothing ever opens this: a thread waiting on it runs until the test interrupts it. */
    private static final CountDownLatch NEVER = new CountDownLatch(1);

    static void waitForInterrupt() {
        try {
            NEVER.await();
        } catch (InterruptedException e) {
            // the test ends it
        }
    }
}
