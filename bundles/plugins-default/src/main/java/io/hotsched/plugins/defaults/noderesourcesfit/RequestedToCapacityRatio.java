package io.hotsched.plugins.defaults.noderesourcesfit;

import io.hotsched.plugins.defaults.helper.BrokenLinear;

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
    public long resourceScore(long requested, long allocatable) {
        long utilization = requested > allocatable ? 100 : requested * 100 / allocatable;
        long s = shape.apply(utilization);
        return s > 0 ? s : LEFT_OUT;
    }

    @Override
    public long combine(long weightedSum, long weightSum) {
        return weightSum == 0 ? 0 : Math.round((double) weightedSum / weightSum);
    }
}
