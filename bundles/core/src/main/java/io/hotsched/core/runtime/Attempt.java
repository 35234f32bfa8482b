package io.hotsched.core.runtime;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.StateData;
import io.hotsched.api.framework.StateKey;
import io.hotsched.core.metrics.SchedulerMetrics;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Who owns one scheduling attempt: the scheduling loop, its binding thread, or nobody because the
 * loop gave up on it. The loop gives up on an attempt when one of its plugin calls runs past the
 * time-out: the loop moves on to the next pod on a new thread, and the thread stuck in the call
 * finishes the attempt when the call returns. Kept in the attempt's cycle state so that the
 * watchdog can find it from a stuck call; shared, not copied, by {@link CycleState#copy()}.
 *
 * <p>While searching ({@link #SEARCH}: PreFilter to Score) the attempt touched nothing shared, so
 * the watchdog requeues the pod itself and the stuck thread drops its result. After
 * ({@link #COMMIT}: PostFilter, assume, Reserve, Permit), the stuck thread owns the pod: it
 * finishes the attempt as usual, off the loop. An attempt waiting for slow extenders is
 * {@link #DETACHED}: it owns its pod and commits when they answer.
 */
public final class Attempt implements StateData {

    public static final StateKey<Attempt> KEY = StateKey.of("hotsched.core/Attempt", Attempt.class);

    /** PreFilter to Score, extenders included: nothing shared changed yet. */
    public static final int SEARCH = 0;
    /** The search is over: PostFilter, or assumed and in Reserve or Permit. */
    public static final int COMMIT = 1;
    /** Handed to a binding thread, or finished. */
    public static final int OFF_LOOP = 2;
    /** Given up in SEARCH: the watchdog requeued the pod; the result is dropped. */
    public static final int ABANDONED_SEARCH = 3;
    /** Given up in COMMIT: the loop moved on; the stuck thread finishes the attempt. */
    public static final int ABANDONED_COMMIT = 4;
    /**
     * Waiting for extenders longer than the loop waits: the loop moved on, and this thread goes on
     * with the attempt when the answers come, re-checking the chosen node before it commits.
     */
    public static final int DETACHED = 5;
    /** In its binding cycle (PreBind, Bind, PostBind) on a binding thread. */
    public static final int BINDING = 6;
    /** Given up in its binding cycle: the binding failed, the stuck thread drops what it returns. */
    public static final int ABANDONED_BINDING = 7;

    private final AtomicInteger phase = new AtomicInteger(SEARCH);
    private final AtomicBoolean holdsCommit = new AtomicBoolean();
    /** When the pod left the queue ({@link System#nanoTime()}): the start of the attempt's duration metric. */
    public final long startNanos = System.nanoTime();
    /** Whether this attempt's plugin calls are timed: upstream samples a share of attempts, as timing every node's call would show. */
    public final boolean timesPlugins;

    public Attempt() {
        this(ThreadLocalRandom.current().nextInt(100) < SchedulerMetrics.PLUGIN_SAMPLE_PERCENT);
    }

    /** @param timesPlugins whether its plugin calls are timed (tests choose; the scheduler samples) */
    public Attempt(boolean timesPlugins) {
        this.timesPlugins = timesPlugins;
    }

    /** The attempt of {@code state}, or null (a dry run's or a test's state). */
    public static Attempt of(CycleState state) {
        return state.readOrNull(KEY);
    }

    /** Whether the plugin calls of {@code state}'s attempt are timed (false without an attempt). */
    public static boolean timesPlugins(CycleState state) {
        Attempt a = of(state);
        return a != null && a.timesPlugins;
    }

    public int phase() {
        return phase.get();
    }

    /** True once the loop gave up on this attempt: parallel work for it may stop. */
    public boolean givenUp() {
        int p = phase.get();
        return p == ABANDONED_SEARCH || p == ABANDONED_COMMIT || p == ABANDONED_BINDING;
    }

    /** The binding cycle starts (Permit allowed the pod); false if the attempt is not off the loop. */
    public boolean startBinding() {
        return phase.compareAndSet(OFF_LOOP, BINDING);
    }

    /** The binding cycle is done with the pod; false if the watchdog gave it up first. */
    public boolean endBinding() {
        return phase.compareAndSet(BINDING, OFF_LOOP);
    }

    /** The search is over (a node found, or none): this thread owns the pod now; false if the loop gave up or detached first. */
    public boolean commit() {
        return phase.compareAndSet(SEARCH, COMMIT);
    }

    /** A detached attempt got the answers and the commit permit: it commits as the loop would. */
    public boolean commitDetached() {
        return phase.compareAndSet(DETACHED, COMMIT);
    }

    /** The loop is done with the attempt (handed to binding, or failed); false if it gave up first. */
    public boolean leaveLoop() {
        int p = phase.get();
        return (p == SEARCH || p == COMMIT || p == DETACHED) && phase.compareAndSet(p, OFF_LOOP);
    }

    /** From the watchdog: the loop stops waiting for this attempt's extenders; false unless it was searching. */
    public boolean detach() {
        return phase.compareAndSet(SEARCH, DETACHED);
    }

    /** This attempt now holds the right to change the cache (the loop's commit permit). */
    public void holdCommit() {
        holdsCommit.set(true);
    }

    public boolean holdsCommit() {
        return holdsCommit.get();
    }

    /** True once: the permit this attempt held is to be given back (by whoever calls this first). */
    public boolean releaseCommit() {
        return holdsCommit.compareAndSet(true, false);
    }

    /**
     * Gives up on the attempt from the watchdog.
     *
     * @return the phase it was given up in ({@link #ABANDONED_SEARCH}, {@link #ABANDONED_COMMIT} or
     *     {@link #ABANDONED_BINDING}),
     *         or -1 when it had already left the loop or been given up
     */
    public int giveUp() {
        while (true) {
            int p = phase.get();
            int to = switch (p) {
                case SEARCH -> ABANDONED_SEARCH;
                case COMMIT -> ABANDONED_COMMIT;
                case BINDING -> ABANDONED_BINDING;
                default -> -1;
            };
            if (to < 0) {
                return -1;
            }
            if (phase.compareAndSet(p, to)) {
                return to;
            }
        }
    }

    @Override
    public StateData copy() {
        return this;
    }
}
