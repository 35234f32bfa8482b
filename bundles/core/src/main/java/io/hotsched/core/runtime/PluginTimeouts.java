package io.hotsched.core.runtime;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How long one plugin call may take, per extension point; changeable while running. A call that
 * returns later than its time-out fails the attempt with an error naming the plugin and counts
 * against the plugin like an exception. Filter and Score time-outs are per node.
 */
public final class PluginTimeouts {

    public static final String PRE_FILTER = "PreFilter";
    public static final String FILTER = "Filter";
    public static final String POST_FILTER = "PostFilter";
    public static final String PRE_SCORE = "PreScore";
    public static final String SCORE = "Score";
    public static final String RESERVE = "Reserve";
    public static final String PERMIT = "Permit";
    public static final String PRE_BIND = "PreBind";
    public static final String BIND = "Bind";
    /**
     * Not a time-out: how long the scheduling loop waits for an attempt's extenders before it
     * moves on and leaves the attempt to finish when they answer (extenders have their own
     * {@code httpTimeout}).
     */
    public static final String EXTENDER_WAIT = "ExtenderWait";

    private final Map<String, Long> millis = new ConcurrentHashMap<>();

    /** Generous defaults: a plugin within them is healthy; one beyond them is broken. */
    public PluginTimeouts() {
        set(PRE_FILTER, 10_000);
        set(FILTER, 1_000);
        set(POST_FILTER, 30_000);
        set(PRE_SCORE, 10_000);
        set(SCORE, 1_000);
        set(RESERVE, 10_000);
        set(PERMIT, 10_000);
        set(PRE_BIND, 60_000);
        set(BIND, 60_000);
        set(EXTENDER_WAIT, 100);
    }

    public void set(String point, long timeoutMillis) {
        millis.put(point, timeoutMillis <= 0 ? Long.MAX_VALUE : timeoutMillis);
    }

    public long millis(String point) {
        // not getOrDefault: its boxed default would be allocated on every call, per node in Filter and Score
        Long v = millis.get(point);
        return v == null ? Long.MAX_VALUE : v;
    }
}
