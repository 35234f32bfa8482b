package io.hotsched.core.scheduler;

import java.time.Duration;

/**
 * Platform settings of the scheduler (Config Admin PID {@code io.hotsched.scheduler}).
 *
 * @param bindingThreads binding cycles running at once
 * @param assumedPodTtl how long an assumed pod whose binding was sent waits to show up in the cluster
 * @param pluginRemovalWait how long a leaving plugin bundle waits for the attempts still using it
 * @param quarantineThreshold failed attempts in a row after which a plugin is quarantined (0: never)
 * @param explanations how many pods' last attempts are kept for {@code sched:explain}
 */
public record SchedulerOptions(
        int bindingThreads,
        Duration assumedPodTtl,
        Duration pluginRemovalWait,
        int quarantineThreshold,
        int explanations) {

    public static SchedulerOptions defaults() {
        return new SchedulerOptions(16, Duration.ofSeconds(30), Duration.ofSeconds(10), 5, 10_000);
    }
}
