package io.hotsched.core.osgi.testbundle.tidy;

import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;

/** A bundle's activator that starts a thread and ends it when it stops. Packed into a test bundle. */
public final class TidyActivator implements BundleActivator {

    private Thread worker;

    @Override
    public void start(BundleContext context) {
        worker = new Thread(
                () -> {
                    try {
                        Thread.sleep(Long.MAX_VALUE);
                    } catch (InterruptedException e) {
                        // stop() ends it
                    }
                },
                "tidy-runnable");
        worker.start();
    }

    @Override
    public void stop(BundleContext context) throws InterruptedException {
        worker.interrupt();
        worker.join();
    }
}
