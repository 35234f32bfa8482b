package io.hotsched.plugins.defaults.defaultpreemption;

import io.hotsched.api.framework.PodInfo;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Comparator;

/**
 * Upstream's "more important pod" order: higher priority first, then the earlier start time. A
 * pod without {@code status.startTime} counts as starting at {@code now}, fixed for one
 * preemption attempt so the order is stable.
 */
final class PodImportance {

    private PodImportance() {}

    static Comparator<PodInfo> order(Instant now) {
        return Comparator.comparingInt(PodInfo::priority).reversed().thenComparing(p -> startTime(p, now));
    }

    static Instant startTime(PodInfo pod, Instant now) {
        String t = pod.pod().getStatus() == null ? null : pod.pod().getStatus().getStartTime();
        if (t == null || t.isEmpty()) {
            return now;
        }
        try {
            return Instant.parse(t);
        } catch (DateTimeParseException e) {
            return now;
        }
    }
}
