package io.hotsched.core.runtime;

import io.hotsched.api.framework.CycleState;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The plugin calls in progress, one slot per thread that makes them, so that a watchdog can see a
 * call that has run past its time-out while it is still running. Marking a call costs a few plain
 * stores (no fence, no allocation): Filter and Score mark one call per node and plugin.
 */
public final class CallWatch {

    private final List<Slot> slots = new CopyOnWriteArrayList<>();
    private final ThreadLocal<Slot> mine = ThreadLocal.withInitial(this::register);

    private Slot register() {
        Slot s = new Slot(Thread.currentThread());
        slots.add(s);
        return s;
    }

    /** The calling thread's slot; look it up once per piece of work, not per call. */
    public Slot slot() {
        return mine.get();
    }

    /** The calls that were still running at {@code now} (coarse-clock millis) past their deadline. */
    public List<Overdue> overdue(long now) {
        List<Overdue> out = null;
        for (Slot s : slots) {
            if (!s.thread.isAlive()) {
                slots.remove(s);
                continue;
            }
            long deadline = (long) Slot.DEADLINE.getAcquire(s);
            if (deadline == 0 || now <= deadline) {
                continue;
            }
            Overdue o = new Overdue(s, deadline, s.state, s.instance, s.extender, s.point, s.startedAt);
            // the fields belong to this call only if the deadline did not change while they were read
            // (and were not cleared by its end, which may become visible before the deadline's reset)
            if (o.state() == null
                    || o.instance() == null && o.extender() == null
                    || (long) Slot.DEADLINE.getAcquire(s) != deadline) {
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
    public static final class Slot {

        static final VarHandle DEADLINE;

        static {
            try {
                DEADLINE = MethodHandles.lookup().findVarHandle(Slot.class, "deadline", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private final Thread thread;
        private CycleState state;
        private PluginInstance instance;
        private String extender;
        private String point;
        private long startedAt;

        @SuppressWarnings("unused") // through DEADLINE
        private long deadline;

        private final AtomicReference<Runnable> onLateReturn = new AtomicReference<>();
        private long handledDeadline; // the watchdog's own

        Slot(Thread thread) {
            this.thread = thread;
        }

        public Thread thread() {
            return thread;
        }

        /** A call of {@code instance} at {@code point} begins at {@code now}; {@code limit} millis allowed. */
        void begin(CycleState state, PluginInstance instance, String point, long now, long limit) {
            mark(state, instance, null, point, now, limit);
        }

        private void mark(
                CycleState state, PluginInstance instance, String extender, String point, long now, long limit) {
            this.state = state;
            this.instance = instance;
            this.extender = extender;
            this.point = point;
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
            mark(state, null, extenders, PluginTimeouts.EXTENDER_WAIT, now, wait);
        }

        /** The call returned; runs what the watchdog asked to run if it was given up on. */
        void end() {
            DEADLINE.setRelease(this, 0L);
            // a long-lived thread's slot must not keep the last plugin (and its bundle's class loader) reachable
            state = null;
            instance = null;
            extender = null;
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
     * @param state the cycle state of the attempt it serves
     * @param instance the plugin called, or null for a wait on extenders
     * @param extender the extenders waited for, or null for a plugin call
     * @param point the extension point (a {@link PluginTimeouts} name)
     * @param startedAt coarse-clock millis when it began
     */
    public record Overdue(
            Slot slot,
            long deadline,
            CycleState state,
            PluginInstance instance,
            String extender,
            String point,
            long startedAt) {

        public long limit() {
            return deadline - startedAt;
        }
    }
}
