package io.hotsched.core.scheduler;

import io.hotsched.core.registry.PluginHealth;
import io.hotsched.core.registry.PluginRegistry;
import io.hotsched.core.registry.Registration;
import io.hotsched.core.runtime.Attempt;
import io.hotsched.core.runtime.CallWatch;
import io.hotsched.core.runtime.CoarseClock;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every {@link #PERIOD_MILLIS}, looks for plugin calls past their time-out, as the
 * {@link io.hotsched.core.runtime.GuardedCall} marked them, and for waits on extenders past the
 * extender wait:
 *
 * <ul>
 *   <li>a call of the loop's attempt makes the loop give the attempt up and go on on a new thread
 *       ({@link SchedulingCycle#giveUp}); a slow extender detaches the attempt instead;
 *   <li>a call of a binding cycle gives the binding up and its slot back ({@link BindingCycle#giveUp});
 *   <li>a call of the shadow thread gets that thread replaced ({@link ShadowRunner#giveUp});
 *   <li>while a call given up on still runs, its plugin serves no new attempt, and a Filter/Score
 *       worker stuck in it is replaced, until it returns.
 * </ul>
 *
 * <p>PreEnqueue and QueueSort are not given up: they run under the queue's lock, which a new thread
 * could not take either. Past its time-out such a call makes the scheduler not live ({@link Liveness})
 * until it returns, and a call of theirs that returns late is a fault.
 *
 * @param loopLeft told the thread that was the loop when the loop must go on on a new one
 */
record Watchdog(
        CallWatch watch,
        CoarseClock clock,
        SchedulingCycle cycle,
        BindingCycle binding,
        BindingSlots slots,
        ShadowRunner shadows,
        SwitchableParallelizer parallelizer,
        PluginHealth health,
        PluginRegistry registry,
        Executor housekeeping,
        Liveness liveness,
        Consumer<Thread> loopLeft) {

    private static final Logger LOG = LoggerFactory.getLogger(Watchdog.class);

    /** How often the watchdog looks. */
    static final long PERIOD_MILLIS = 20;

    void check() {
        try {
            long now = clock.now();
            for (CallWatch.Overdue o : watch.overdue(now)) {
                if (o.call() != null && o.call().underQueueLock()) {
                    liveness.heldBy(o, now);
                    continue;
                }
                if (o.extender() != null) {
                    Thread left = cycle.detach(o);
                    if (left != null) {
                        loopLeft.accept(left);
                    }
                    continue;
                }
                if (shadows.giveUp(o, now)) {
                    // until it returns, the version in shadow is left out (a stuck registration runs in no shadow)
                    o.tracker().onceFor(o, () -> whileStuck(o));
                    continue;
                }
                Thread left = cycle.giveUp(o, now);
                if (left == null) {
                    binding.giveUp(o, now);
                }
                Attempt a = Attempt.of(o.state());
                if (a != null && a.givenUp()) {
                    // before the new loop starts: its first attempt must not enter the stuck plugin
                    o.tracker().onceFor(o, () -> whileStuck(o));
                }
                if (left != null) {
                    loopLeft.accept(left);
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("Watching plugin calls failed: {}", e.toString());
        }
    }

    /**
     * A call given up on is still running: its plugin serves no new attempt, a worker stuck in it
     * is replaced and a binding slot it holds given back, until it returns. Returns what to do then.
     */
    private Runnable whileStuck(CallWatch.Overdue o) {
        slots.release(o.tracker().thread());
        Runnable giveBack = parallelizer.lendFor(o.tracker().thread());
        Registration r = o.instance().registration();
        if (r != null) {
            health.callStuck(r);
            registry.changed(r.name());
        }
        return () -> {
            if (giveBack != null) {
                giveBack.run();
            }
            // on the thread that was stuck, still inside the framework: rebuild elsewhere
            if (r != null && health.callReturned(r)) {
                try {
                    housekeeping.execute(() -> {
                        LOG.info("Plugin {}: its calls given up on have returned; it serves again", o.instance());
                        registry.changed(r.name());
                    });
                } catch (RejectedExecutionException e) {
                    LOG.debug("Plugin {} returned after the scheduler stopped", o.instance());
                }
            }
        };
    }
}
