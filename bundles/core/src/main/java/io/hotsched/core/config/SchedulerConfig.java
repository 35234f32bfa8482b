package io.hotsched.core.config;

import java.util.List;

/**
 * A validated KubeSchedulerConfiguration (v1) with upstream's defaults applied.
 *
 * @param source the file it came from, for messages
 * @param extenders the {@code extenders} list, shared by every profile as upstream does
 */
public record SchedulerConfig(
        String source,
        int parallelism,
        int percentageOfNodesToScore,
        long podInitialBackoffSeconds,
        long podMaxBackoffSeconds,
        List<ProfileConfig> profiles,
        List<ExtenderConfig> extenders) {

    public ProfileConfig profile(String schedulerName) {
        for (ProfileConfig p : profiles) {
            if (p.schedulerName().equals(schedulerName)) {
                return p;
            }
        }
        return null;
    }
}
