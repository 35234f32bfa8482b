package io.hotsched.plugins.deviceshare;

import io.hotsched.api.framework.Status;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Koordinator's default allocation of {@code count} devices of one type: the healthy devices
 * ordered by score (highest first; all 0 without a scorer, as in Filter) then minor, taking each
 * whose free amounts cover the per-device request.
 */
public final class DefaultAllocator {

    /** The devices chosen, each with the amounts it gives; or why none could be. */
    public record Result(Status status, List<GpuMemoryFill.Allocation> allocations) {}

    private DefaultAllocator() {}

    public static Result allocate(
            NodeDevices node,
            String type,
            Map<String, BigDecimal> perDevice,
            int count,
            DeviceScorer scorer,
            Map<Integer, Map<String, BigDecimal>> preemptible) {
        record Candidate(DeviceEntry device, Map<String, BigDecimal> free, long score) {}
        List<Candidate> candidates = new ArrayList<>();
        for (DeviceEntry d : node.devices(type)) {
            if (d.resources().isEmpty()) {
                continue;
            }
            Map<String, BigDecimal> free = node.free(d, preemptible == null ? null : preemptible.get(d.minor()));
            long score = scorer == null ? 0 : scorer.score(perDevice, d.resources(), free);
            candidates.add(new Candidate(d, free, score));
        }
        candidates.sort(Comparator.comparingLong(Candidate::score)
                .reversed()
                .thenComparingInt(c -> c.device().minor()));
        List<GpuMemoryFill.Allocation> chosen = new ArrayList<>();
        for (Candidate c : candidates) {
            if (chosen.size() == count) {
                break;
            }
            if (covers(c.free(), perDevice)) {
                chosen.add(new GpuMemoryFill.Allocation(c.device().minor(), perDevice));
            }
        }
        if (chosen.size() < count) {
            return new Result(Status.unschedulable("Insufficient " + type + " devices"), null);
        }
        chosen.sort(Comparator.comparingInt(GpuMemoryFill.Allocation::minor));
        return new Result(Status.SUCCESS, chosen);
    }

    static boolean covers(Map<String, BigDecimal> free, Map<String, BigDecimal> request) {
        for (Map.Entry<String, BigDecimal> r : request.entrySet()) {
            if (free.getOrDefault(r.getKey(), BigDecimal.ZERO).compareTo(r.getValue()) < 0) {
                return false;
            }
        }
        return true;
    }
}
