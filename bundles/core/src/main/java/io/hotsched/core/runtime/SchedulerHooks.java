package io.hotsched.core.runtime;

import io.hotsched.api.framework.PodInfo;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * What the scheduler lends plugins beyond one attempt, through their {@link
 * io.hotsched.api.framework.Handle}: its feature gates, the queue's activate, and the threads that
 * run work outliving a cycle.
 *
 * @param features whether a feature gate is on now (false for one not known)
 * @param activate moves a waiting pod to the active queue
 * @param background runs plugins' work that outlives the cycle (asynchronous preemption's API calls)
 */
public record SchedulerHooks(Predicate<String> features, Consumer<PodInfo> activate, Executor background) {

    /** No gates, no queue, work done on the caller's thread (tests of other things). */
    public static SchedulerHooks none() {
        return new SchedulerHooks(gate -> false, pod -> {}, Runnable::run);
    }
}
