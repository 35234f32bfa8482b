package io.hotsched.core.registry;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Failures per plugin registration (name, bundle, version). After {@code threshold} scheduling
 * attempts in a row in which the plugin failed (threw, timed out, or scored out of range), the
 * registration is quarantined: it no longer serves, and the profiles that need it pause, until its
 * bundle is updated (a new registration) or it is released by hand. While a call given up on at its
 * time-out is still running, the registration is stuck: it does not serve until the call returns.
 */
public final class PluginHealth {

    /** Counters of one registration. */
    public static final class Counters {
        private final AtomicLong failures = new AtomicLong();
        private final AtomicLong consecutive = new AtomicLong();
        private volatile boolean quarantined;
        private volatile String lastError;
        private final AtomicLong stuck = new AtomicLong();

        public long failures() {
            return failures.get();
        }

        public long consecutive() {
            return consecutive.get();
        }

        public boolean quarantined() {
            return quarantined;
        }

        public String lastError() {
            return lastError;
        }

        /** Calls given up on at their time-out that have not returned yet. */
        public long stuck() {
            return stuck.get();
        }
    }

    private final Map<Long, Counters> counters = new ConcurrentHashMap<>();
    private volatile int threshold;

    public PluginHealth(int threshold) {
        this.threshold = threshold;
    }

    public void setThreshold(int threshold) {
        this.threshold = threshold;
    }

    public int threshold() {
        return threshold;
    }

    /**
     * Records a failed attempt of the plugin.
     *
     * @return true when this failure put the registration into quarantine
     */
    public boolean failed(Registration r, String error) {
        Counters c = counters.computeIfAbsent(r.serviceId(), k -> new Counters());
        c.failures.incrementAndGet();
        c.lastError = error;
        long n = c.consecutive.incrementAndGet();
        if (threshold > 0 && n >= threshold && !c.quarantined) {
            c.quarantined = true;
            return true;
        }
        return false;
    }

    /**
     * Quarantines the registration for a reason other than failed attempts (it used more CPU or
     * heap than allowed).
     *
     * @return true when it was not quarantined before
     */
    public boolean quarantine(Registration r, String reason) {
        Counters c = counters.computeIfAbsent(r.serviceId(), k -> new Counters());
        if (c.quarantined) {
            return false;
        }
        c.lastError = reason;
        c.quarantined = true;
        return true;
    }

    /** Records an attempt in which the plugin ran without failing. */
    public void succeeded(Registration r) {
        Counters c = counters.get(r.serviceId());
        if (c != null && c.consecutive.get() != 0) {
            c.consecutive.set(0);
        }
    }

    public boolean quarantined(Registration r) {
        Counters c = counters.get(r.serviceId());
        return c != null && c.quarantined;
    }

    /**
     * A call of the plugin was given up on at its time-out and is still running. Until every such
     * call returns, the registration serves no new attempt: a plugin that hangs would otherwise
     * cost every next attempt its full time-out and leave one more thread stuck in it.
     */
    public void callStuck(Registration r) {
        counters.computeIfAbsent(r.serviceId(), k -> new Counters()).stuck.incrementAndGet();
    }

    /** @return true when that was the last stuck call of the registration: it may serve again */
    public boolean callReturned(Registration r) {
        Counters c = counters.get(r.serviceId());
        return c != null && c.stuck.decrementAndGet() == 0;
    }

    /** True while a call of the registration given up on at its time-out is still running. */
    public boolean stuck(Registration r) {
        Counters c = counters.get(r.serviceId());
        return c != null && c.stuck.get() > 0;
    }

    /** Ends a quarantine by hand; false when the registration was not quarantined. */
    public boolean release(Registration r) {
        Counters c = counters.get(r.serviceId());
        if (c == null || !c.quarantined) {
            return false;
        }
        c.quarantined = false;
        c.consecutive.set(0);
        return true;
    }

    public Counters counters(Registration r) {
        return counters.getOrDefault(r.serviceId(), new Counters());
    }

    void forget(Registration r) {
        counters.remove(r.serviceId());
    }
}
