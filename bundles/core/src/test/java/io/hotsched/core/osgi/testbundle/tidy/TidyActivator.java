package io.hotsched.core.osgi.testbundle.tidy;

import java.util.concurrent.CountDownLatch;
import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;

/** A bundle's activator that starts a thread and ends it when it stops. Packed into a test bundle. */
public final class TidyActivator implements BundleActivator {

    private final CountDownLatch stopping = new CountDownLatch(1);
    private Thread worker;

    @Override
    public void start(BundleContext context) {
        worker = new Thread(
                () -> {
                    try {
                        stopping.await();
                    } catch (InterruptedException e) {
                        // ends the same way
                    }
                },
                "tidy-runnable");
        worker.start();
    }

    @Override
    public void stop(BundleContext context) throws InterruptedException {
        stopping.countDown();
        worker.join();
    }
}
