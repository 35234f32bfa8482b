package io.hotsched.plugins.defaults.defaultpreemption;

import io.hotsched.api.framework.PodInfo;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * Chooses the node to preempt on, applying upstream's criteria in order and stopping as soon as
 * one candidate is best: fewest budget violations; lowest highest-victim priority; lowest sum of
 * victim priorities (each shifted by 2^31 so negative priorities do not win); fewest victims;
 * latest earliest start among the highest-priority victims; then the first in candidate order.
 */
final class CandidatePicker {

    private CandidatePicker() {}

    static Candidate pick(List<Candidate> candidates, Instant now) {
        if (candidates.isEmpty()) {
            return null;
        }
        List<ToLongFunction<Candidate>> criteria = List.of(
                c -> -c.numPDBViolations(),
                c -> -(long) c.victims().get(0).priority(),
                c -> {
                    long sum = 0;
                    for (PodInfo v : c.victims()) {
                        sum += (long) v.priority() + (1L << 31);
                    }
                    return -sum;
                },
                c -> -(long) c.victims().size(),
                c -> earliestStartOfMostImportant(c.victims(), now));
        List<Candidate> remaining = candidates;
        for (ToLongFunction<Candidate> criterion : criteria) {
            if (remaining.size() == 1) {
                break;
            }
            List<Candidate> best = new ArrayList<>();
            long max = Long.MIN_VALUE;
            for (Candidate c : remaining) {
                long score = criterion.applyAsLong(c);
                if (score > max) {
                    max = score;
                    best.clear();
                }
                if (score == max) {
                    best.add(c);
                }
            }
            remaining = best;
        }
        return remaining.get(0);
    }

    /** Nanoseconds since the epoch of the earliest start among the victims with the highest priority. */
    static long earliestStartOfMostImportant(List<PodInfo> victims, Instant now) {
        int max = Integer.MIN_VALUE;
        Instant earliest = null;
        for (PodInfo v : victims) {
            Instant t = PodImportance.startTime(v, now);
            if (v.priority() > max) {
                max = v.priority();
                earliest = t;
            } else if (v.priority() == max && t.isBefore(earliest)) {
                earliest = t;
            }
        }
        if (earliest == null) {
            return Long.MIN_VALUE;
        }
        return earliest.getEpochSecond() * 1_000_000_000L + earliest.getNano();
    }
}
