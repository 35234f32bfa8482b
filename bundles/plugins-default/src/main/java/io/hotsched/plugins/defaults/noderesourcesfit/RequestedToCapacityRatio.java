package io.hotsched.plugins.defaults.noderesourcesfit;

/**
 * Utilization of each resource mapped through the configured shape; resources scoring 0 are left
 * out; the weighted mean is rounded half away from zero.
 */
final class RequestedToCapacityRatio implements ScoringStrategy {

    private final BrokenLinear shape;

    RequestedToCapacityRatio(BrokenLinear shape) {
        this.shape = shape;
    }

    @Override
    public long score(long[] requested, long[] allocatable, long[] weights) {
        long sum = 0;
        long weightSum = 0;
        for (int i = 0; i < requested.length; i++) {
            if (allocatable[i] == 0) {
                continue;
            }
            long utilization = requested[i] > allocatable[i] ? 100 : requested[i] * 100 / allocatable[i];
            long s = shape.apply(utilization);
            if (s > 0) {
                sum += s * weights[i];
                weightSum += weights[i];
            }
        }
        return weightSum == 0 ? 0 : Math.round((double) sum / weightSum);
    }
}
