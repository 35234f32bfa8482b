package io.hotsched.kube.delivery;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.BundleListener;
import org.osgi.framework.wiring.BundleRevision;
import org.osgi.framework.wiring.FrameworkWiring;

/**
 * Waits, on the framework's bundle events, for what FileInstall made of a jar written to the
 * delivered folder: the bundle from that file running (or, a fragment, resolved), or refused with
 * the framework's words when it does not resolve, or refused when neither happens in time.
 */
final class BundleOutcome implements AutoCloseable {

    /** Felix's words when a resolve could not even start, which says nothing of the bundle. */
    private static final String GLOBAL_LOCK = "Unable to acquire global lock for resolve";

    /**
     * How long a bundle may sit resolved but not started before this starts it. FileInstall starts
     * what it installed in the same scan, but when its start meets another resolve holding the
     * framework's lock (the deploy/ folder's FileInstall installing at the same moment), it logs
     * the error and does not try again until a file changes.
     */
    private static final long START_GRACE_NANOS = 1_000_000_000L;

    private final BundleContext context;
    private final Object lock = new Object();
    private final BundleListener listener = e -> {
        synchronized (lock) {
            lock.notifyAll();
        }
    };

    BundleOutcome(BundleContext context) {
        this.context = context;
        context.addBundleListener(listener);
    }

    /** The running bundle installed or updated from {@code file} at or after {@code writtenAt} (epoch ms). */
    Bundle await(Path file, long writtenAt, Duration timeout) throws Refusal {
        long deadline = System.nanoTime() + timeout.toNanos();
        String suffix = "/" + file.getParent().getFileName() + "/" + file.getFileName();
        long notStartedSince = 0;
        while (true) {
            Bundle b = fromFile(suffix);
            if (b != null && b.getLastModified() >= writtenAt) {
                if (b.getState() == Bundle.ACTIVE || (fragment(b) && b.getState() == Bundle.RESOLVED)) {
                    return b;
                }
                if (b.getState() == Bundle.INSTALLED && !resolves(b)) {
                    String why = whyNot(b);
                    // another resolve or refresh holds the framework's lock: started below once it is free
                    if (!why.contains(GLOBAL_LOCK)) {
                        throw new Refusal("the bundle does not resolve: " + why);
                    }
                }
                if ((b.getState() == Bundle.INSTALLED || b.getState() == Bundle.RESOLVED) && !fragment(b)) {
                    long now = System.nanoTime();
                    if (notStartedSince == 0) {
                        notStartedSince = now;
                    } else if (now - notStartedSince >= START_GRACE_NANOS) {
                        startLeftBehind(b);
                    }
                }
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new Refusal(
                        b == null
                                ? "FileInstall did not install " + file.getFileName() + " within " + timeout.toSeconds()
                                        + " s"
                                : "the bundle did not start within " + timeout.toSeconds() + " s (state " + b.getState()
                                        + ")");
            }
            synchronized (lock) {
                try {
                    // bundle events wake this; the bound only covers a state change that sends none
                    lock.wait(Math.max(1, Math.min(left / 1_000_000, 200)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new Refusal("interrupted while waiting for the bundle", true);
                }
            }
        }
    }

    /**
     * Starts {@code b}, which FileInstall left unstarted; a start that meets the framework's lock
     * again is tried on the next look, any other failure (its activator threw) refuses the bundle.
     */
    private static void startLeftBehind(Bundle b) throws Refusal {
        try {
            b.start();
        } catch (BundleException e) {
            if (e.getMessage() == null || !e.getMessage().contains(GLOBAL_LOCK)) {
                // Felix's words name the bundle; the cause says what failed (a class not found, the activator's throw)
                throw new Refusal("the bundle does not start: " + e.getMessage()
                        + (e.getCause() == null ? "" : "; caused by " + e.getCause()));
            }
        } catch (IllegalStateException e) {
            // uninstalled meanwhile: the next look says what became of the file
        }
    }

    private Bundle fromFile(String suffix) {
        for (Bundle b : context.getBundles()) {
            if (b.getLocation().endsWith(suffix)) {
                return b;
            }
        }
        return null;
    }

    private boolean resolves(Bundle b) {
        return context.getBundle(0).adapt(FrameworkWiring.class).resolveBundles(List.of(b));
    }

    /** The resolver's message: a transient start of an unresolvable bundle fails with it and changes nothing. */
    private static String whyNot(Bundle b) {
        try {
            b.start(Bundle.START_TRANSIENT);
            return "it resolved meanwhile";
        } catch (BundleException | IllegalStateException e) {
            return e.getMessage();
        }
    }

    private static boolean fragment(Bundle b) {
        BundleRevision r = b.adapt(BundleRevision.class);
        return r != null && (r.getTypes() & BundleRevision.TYPE_FRAGMENT) != 0;
    }

    @Override
    public void close() {
        context.removeBundleListener(listener);
    }
}
