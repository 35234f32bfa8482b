package io.hotsched.core.runtime;

import io.hotsched.api.framework.CycleState;
import io.hotsched.core.metrics.PluginUsage;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The plugin calls in progress, one tracker per thread that makes them, so that a watchdog can see a
 * call that has run past its time-out while it is still running. Marking a call costs a few plain
 * stores (no fence, no allocation): Filter and Score mark one call per node and plugin.
 */
public final class CallWatch {

    private final List<Tracker> trackers = new CopyOnWriteArrayList<>();
    private final ThreadLocal<Tracker> mine = ThreadLocal.withInitial(this::register);
    /** One call in this many is measured unless set otherwise: well under 1% of the scheduling loop's time. */
    public static final int DEFAULT_SAMPLING_PERIOD = 256;

    private final PluginUsage usage;
    private volatile int samplingPeriod = DEFAULT_SAMPLING_PERIOD;

    /** Calls watched, not measured. */
    public CallWatch() {
        this(null);
    }

    /** Calls watched, and measured into {@code usage} (one in {@link #samplingPeriod()} on average); null: not measured. */
    public CallWatch(PluginUsage usage) {
        this.usage = usage;
    }

    private Tracker register() {
        Thread t = Thread.currentThread();
        Tracker s = new Tracker(t, usage == null ? null : new UsageSampler(usage, this, System.nanoTime() ^ t.getId()));
        trackers.add(s);
        return s;
    }

    /** One plugin call in how many, on average, each thread measures for CPU time and allocation. */
    public int samplingPeriod() {
        return samplingPeriod;
    }

    public void setSamplingPeriod(int period) {
        if (period < 1) {
            throw new IllegalArgumentException("sampling period must be at least 1, not " + period);
        }
        this.samplingPeriod = period;
    }

    /**
     * From now on the calling thread's calls are watched but not measured: a shadow's thread, whose
     * CPU time is bounded as the shadows' share and must not count against the serving plugin's.
     */
    public void unmeasured() {
        Tracker s = new Tracker(Thread.currentThread(), null);
        trackers.add(s);
        mine.set(s);
    }

    /** The calling thread's tracker; look it up once per piece of work, not per call. */
    public Tracker tracker() {
        return mine.get();
    }

    /** The calls that were still running at {@code now} (coarse-clock millis) past their deadline. */
    public List<Overdue> overdue(long now) {
        List<Overdue> out = null;
        for (Tracker s : trackers) {
            if (!s.thread.isAlive()) {
                trackers.remove(s);
                continue;
            }
            long deadline = (long) Tracker.DEADLINE.getAcquire(s);
            if (deadline == 0 || now <= deadline) {
                continue;
            }
            Overdue o = new Overdue(s, deadline, s.state, s.instance, s.extender, s.call, s.startedAt);
            // the fields belong to this call only if the deadline did not change while they were read
            // (and were not cleared by its end, which may become visible before the deadline's reset)
            if (o.instance() == null && o.extender() == null || (long) Tracker.DEADLINE.getAcquire(s) != deadline) {
                continue;
            }
            if (out == null) {
                out = new ArrayList<>(2);
            }
            out.add(o);
        }
        return out == null ? List.of() : out;
    }

    /** One thread's call in progress. Written only by its thread, read by the watchdog. */
    public static final class Tracker {

        static final VarHandle DEADLINE;

        static {
            try {
                DEADLINE = MethodHandles.lookup().findVarHandle(Tracker.class, "deadline", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private final Thread thread;
        private final UsageSampler sampler;
        private CycleState state;
        private PluginInstance instance;
        private String extender;
        private PluginCall call;
        private long startedAt;

        @SuppressWarnings("unused") // through DEADLINE
        private long deadline;

        /*
         * The calls this one runs inside (a PostFilter plugin's dry runs call Filter through the
         * handle): the innermost is watched, the outer ones again when it returns. Deeper nesting
         * than this is watched at its outermost levels only.
         */
        private static final int MAX_DEPTH = 8;

        private final CycleState[] outerState = new CycleState[MAX_DEPTH];
        private final PluginInstance[] outerInstance = new PluginInstance[MAX_DEPTH];
        private final String[] outerExtender = new String[MAX_DEPTH];
        private final PluginCall[] outerCall = new PluginCall[MAX_DEPTH];
        private final long[] outerStartedAt = new long[MAX_DEPTH];
        private final long[] outerDeadline = new long[MAX_DEPTH];
        private int depth;

        private final AtomicReference<Runnable> onLateReturn = new AtomicReference<>();
        private long handledDeadline; // the watchdog's own

        Tracker(Thread thread, UsageSampler sampler) {
            this.thread = thread;
            this.sampler = sampler;
        }

        public Thread thread() {
            return thread;
        }

        /**
         * {@code call} of {@code instance} begins at {@code now}; {@code limit} millis allowed.
         * {@code state} is null for a call outside an attempt (PreEnqueue, QueueSort).
         */
        void begin(CycleState state, PluginInstance instance, PluginCall call, long now, long limit) {
            mark(state, instance, null, call, now, limit);
        }

        private void mark(
                CycleState state, PluginInstance instance, String extender, PluginCall call, long now, long limit) {
            int outer = depth++;
            if (outer > 0 && outer <= MAX_DEPTH) {
                int i = outer - 1;
                outerState[i] = this.state;
                outerInstance[i] = this.instance;
                outerExtender[i] = this.extender;
                outerCall[i] = this.call;
                outerStartedAt[i] = this.startedAt;
                outerDeadline[i] = (long) DEADLINE.getOpaque(this);
            } else if (outer > MAX_DEPTH) {
                return;
            } else if (sampler != null && instance != null) {
                sampler.begin();
            }
            this.state = state;
            this.instance = instance;
            this.extender = extender;
            this.call = call;
            this.startedAt = now;
            long d = limit >= Long.MAX_VALUE - now ? Long.MAX_VALUE : now + limit;
            // release: the watchdog that sees this deadline sees the fields above
            DEADLINE.setRelease(this, d);
        }

        /**
         * The attempt of {@code state} waits for the extenders named {@code extenders}; after
         * {@code wait} millis the loop stops waiting (the attempt goes on off the loop).
         */
        void beginExtenders(CycleState state, String extenders, long now, long wait) {
            mark(state, null, extenders, null, now, wait);
        }

        /**
         * The call returned: the call it ran inside, if any, is watched again; runs what the
         * watchdog asked to run if it was given up on.
         */
        void end() {
            int outer = --depth;
            if (outer > MAX_DEPTH) {
                return;
            }
            DEADLINE.setRelease(this, 0L);
            if (outer > 0) {
                int i = outer - 1;
                state = outerState[i];
                instance = outerInstance[i];
                extender = outerExtender[i];
                call = outerCall[i];
                startedAt = outerStartedAt[i];
                outerState[i] = null;
                outerInstance[i] = null;
                outerExtender[i] = null;
                DEADLINE.setRelease(this, outerDeadline[i]);
            } else {
                if (sampler != null) {
                    sampler.end(instance, call);
                }
                // a long-lived thread's tracker must not keep the last plugin (and its bundle's class loader) reachable
                state = null;
                instance = null;
                extender = null;
            }
            if (onLateReturn.getPlain() != null) {
                Runnable r = onLateReturn.getAndSet(null);
                if (r != null) {
                    r.run();
                }
            }
        }

        /**
         * For the overdue call {@code o}, once however often it is reported: runs {@code action},
         * and what it returns when the call returns (at once if it already has).
         */
        public void onceFor(Overdue o, Supplier<Runnable> action) {
            if (handledDeadline == o.deadline()) {
                return;
            }
            handledDeadline = o.deadline();
            Runnable then = action.get();
            if (then != null) {
                whenReturned(o, then);
            }
        }

        /** Whether the overdue call {@code o} is still running. */
        public boolean stillIn(Overdue o) {
            return (long) DEADLINE.getAcquire(this) == o.deadline();
        }

        private void whenReturned(Overdue o, Runnable r) {
            onLateReturn.set(r);
            if ((long) DEADLINE.getAcquire(this) != o.deadline()) {
                Runnable mine = onLateReturn.getAndSet(null);
                if (mine != null) {
                    mine.run();
                }
            }
        }
    }

    /**
     * A call past its deadline.
     *
     * @param tracker the calling thread's tracker
     * @param state the cycle state of the attempt it serves; null for a call outside an attempt
     * @param instance the plugin called, or null for a wait on extenders
     * @param extender the extenders waited for, or null for a plugin call
     * @param call what was called, or null for a wait on extenders
     * @param startedAt coarse-clock millis when it began
     */
    public record Overdue(
            Tracker tracker,
            long deadline,
            CycleState state,
            PluginInstance instance,
            String extender,
            PluginCall call,
            long startedAt) {

        public long limit() {
            return deadline - startedAt;
        }

        /** What the watchdog tells of the plugin call at {@code now}, naming the call as upstream words it. */
        public String stillRunning(long now) {
            return call.describe(instance.name()) + ": still running after " + (now - startedAt) + "ms, over the "
                    + limit() + "ms time-out for " + call.point().label();
        }
    }
}
