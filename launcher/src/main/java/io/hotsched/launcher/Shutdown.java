package io.hotsched.launcher;

import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import sun.misc.Signal;

/**
 * Turns SIGTERM and SIGINT into an orderly framework stop with a bounded wait, so that a service
 * manager sees exit code 0 for a clean stop (the JVM's default would be 143) and 1 when the
 * platform did not stop in time.
 */
final class Shutdown {

    private final Platform platform;
    private final Duration timeout;
    private final AtomicBoolean requested;
    private final PrintStream err;
    private volatile boolean timedOut;

    Shutdown(Platform platform, Duration timeout, AtomicBoolean requested, PrintStream err) {
        this.platform = platform;
        this.timeout = timeout;
        this.requested = requested;
        this.err = err;
    }

    void install() {
        for (String name : new String[] {"TERM", "INT"}) {
            try {
                Signal.handle(new Signal(name), signal -> request("SIG" + name));
            } catch (IllegalArgumentException e) {
                // the JVM runs with -Xrs or the signal is reserved: the shutdown hook still stops cleanly
            }
        }
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            if (platform.running()) {
                                stopAndWait();
                            }
                        },
                        "hotsched-shutdown-hook"));
    }

    void request(String why) {
        if (!requested.compareAndSet(false, true)) {
            return;
        }
        err.println("hotsched: " + why + " received, stopping (at most " + timeout.toSeconds() + " s)");
        Thread stopper = new Thread(this::stopAndWait, "hotsched-stop");
        stopper.setDaemon(true);
        stopper.start();
    }

    private void stopAndWait() {
        try {
            if (!platform.stop(timeout)) {
                timedOut = true;
                err.println("hotsched: the platform did not stop within " + timeout.toSeconds() + " s; exiting anyway");
                Runtime.getRuntime().halt(Main.FAILED);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    int exitCode() {
        return timedOut ? Main.FAILED : Main.OK;
    }
}
