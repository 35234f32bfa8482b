package io.hotsched.core.runtime;

import io.hotsched.core.config.ExtensionPoint;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * How long one plugin call may take, per extension point; changeable while running. A call still
 * running past its time-out is given up by the watchdog, and one that returns later than it fails
 * its attempt with an error naming the plugin; both count against the plugin like an exception.
 * Transformers have the time-out of their point; Filter's, Score's and the PreFilter extensions'
 * are per node.
 */
public final class PluginTimeouts {

    private final AtomicLongArray millis = new AtomicLongArray(ExtensionPoint.values().length);
    private volatile long extenderWait;

    /** Generous defaults: a plugin within them is healthy; one beyond them is broken. */
    public PluginTimeouts() {
        for (ExtensionPoint p : ExtensionPoint.values()) {
            set(p, 0);
        }
        set(ExtensionPoint.PRE_ENQUEUE, 10_000);
        set(ExtensionPoint.QUEUE_SORT, 1_000);
        set(ExtensionPoint.PRE_FILTER, 10_000);
        set(ExtensionPoint.PRE_FILTER_ADD_POD, 1_000);
        set(ExtensionPoint.PRE_FILTER_REMOVE_POD, 1_000);
        set(ExtensionPoint.FILTER, 1_000);
        set(ExtensionPoint.POST_FILTER, 30_000);
        set(ExtensionPoint.PRE_SCORE, 10_000);
        set(ExtensionPoint.SCORE, 1_000);
        set(ExtensionPoint.SCORE_NORMALIZE, 10_000);
        set(ExtensionPoint.RESERVE, 10_000);
        set(ExtensionPoint.UNRESERVE, 10_000);
        set(ExtensionPoint.PERMIT, 10_000);
        set(ExtensionPoint.PRE_BIND, 60_000);
        set(ExtensionPoint.BIND, 60_000);
        set(ExtensionPoint.POST_BIND, 60_000);
        setExtenderWait(100);
    }

    /** Sets the time-out of {@code point}; 0 or less: none. */
    public void set(ExtensionPoint point, long timeoutMillis) {
        millis.set(point.ordinal(), timeoutMillis <= 0 ? Long.MAX_VALUE : timeoutMillis);
    }

    /** The time-out of {@code point} in millis; {@link Long#MAX_VALUE}: none. */
    public long millis(ExtensionPoint point) {
        return millis.get(point.ordinal());
    }

    /** How long the scheduling loop waits for an attempt's extenders (they have their own {@code httpTimeout}). */
    public void setExtenderWait(long waitMillis) {
        extenderWait = waitMillis <= 0 ? Long.MAX_VALUE : waitMillis;
    }

    public long extenderWait() {
        return extenderWait;
    }
}
