package io.hotsched.core.scheduler;

import io.hotsched.core.runtime.ShadowResult;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The figures of one plugin version in shadow beside one serving version, over every profile that
 * uses the plugin: pods compared, agreeing and not, disagreements by reason, faults, pods skipped
 * (over the CPU share, or the shadow thread's queue full), both sides' decision time and the
 * shadow's CPU time, and the last disagreements. An observe-only profile has figures of the same
 * kind beside the scheduler it observes, whose decision time is not known (0).
 */
public final class ShadowFigures {

    /** How many disagreements are kept for {@code sched:shadow PLUGIN}. */
    static final int KEPT = 50;

    private final String plugin;
    private final String servingVersion;
    private final String shadowVersion;
    final LongAdder compared = new LongAdder();
    final LongAdder agreed = new LongAdder();
    final LongAdder faults = new LongAdder();
    final LongAdder skippedCpu = new LongAdder();
    final LongAdder skippedQueue = new LongAdder();
    /** Observe-only: pods not decided because {@link Observer#CAP} pods already waited to be bound. */
    final LongAdder skippedPending = new LongAdder();

    final LongAdder servingNanos = new LongAdder();
    final LongAdder shadowNanos = new LongAdder();
    final LongAdder shadowCpuNanos = new LongAdder();
    private final Map<String, LongAdder> byReason = new ConcurrentHashMap<>();
    private final Deque<ShadowResult> last = new ArrayDeque<>();
    private volatile String lastFault;
    private final boolean observing;

    ShadowFigures(String plugin, String servingVersion, String shadowVersion, boolean observing) {
        this.plugin = plugin;
        this.servingVersion = servingVersion;
        this.shadowVersion = shadowVersion;
        this.observing = observing;
    }

    /** Whether these are an observe-only profile's figures (beside another scheduler), not a shadow's. */
    public boolean observing() {
        return observing;
    }

    void record(ShadowResult r, long servingDecisionNanos, long shadowDecisionNanos, long cpuNanos) {
        shadowCpuNanos.add(cpuNanos);
        if (r.fault() != null) {
            faults.increment();
            lastFault = r.pod() + ": " + r.fault();
            return;
        }
        compared.increment();
        servingNanos.add(servingDecisionNanos);
        shadowNanos.add(shadowDecisionNanos);
        if (r.agrees()) {
            agreed.increment();
            return;
        }
        for (String reason : r.reasons()) {
            byReason.computeIfAbsent(reason, k -> new LongAdder()).increment();
        }
        synchronized (last) {
            last.addFirst(r);
            if (last.size() > KEPT) {
                last.removeLast();
            }
        }
    }

    /** The run for a pod failed outside the plugins' calls. */
    void failed(String message) {
        faults.increment();
        lastFault = message;
    }

    public String plugin() {
        return plugin;
    }

    public String servingVersion() {
        return servingVersion;
    }

    public String shadowVersion() {
        return shadowVersion;
    }

    public long compared() {
        return compared.sum();
    }

    public long agreed() {
        return agreed.sum();
    }

    public long disagreed() {
        return compared.sum() - agreed.sum();
    }

    public long faults() {
        return faults.sum();
    }

    public long skippedCpu() {
        return skippedCpu.sum();
    }

    public long skippedQueue() {
        return skippedQueue.sum();
    }

    public long skippedPending() {
        return skippedPending.sum();
    }

    public String lastFault() {
        return lastFault;
    }

    /** Agreeing pods over pods compared; 1 before any was. */
    public double agreement() {
        long c = compared.sum();
        return c == 0 ? 1 : (double) agreed.sum() / c;
    }

    /** Mean decision time of the serving version, and of the shadow, over the pods compared, in nanos. */
    public long meanServingNanos() {
        long c = compared.sum();
        return c == 0 ? 0 : servingNanos.sum() / c;
    }

    public long meanShadowNanos() {
        long c = compared.sum();
        return c == 0 ? 0 : shadowNanos.sum() / c;
    }

    public long shadowCpuNanos() {
        return shadowCpuNanos.sum();
    }

    public Map<String, Long> disagreementsByReason() {
        Map<String, Long> out = new TreeMap<>();
        byReason.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    /** The last disagreements, newest first. */
    public List<ShadowResult> lastDisagreements() {
        synchronized (last) {
            return new ArrayList<>(last);
        }
    }
}
