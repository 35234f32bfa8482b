package io.hotsched.plugins.defaults.defaultpreemption;

import io.hotsched.api.framework.InvalidArgsException;

/**
 * How many candidate nodes a preemption dry run looks for: upstream's DefaultPreemptionArgs
 * {@code minCandidateNodesPercentage} (of the potential nodes) and {@code minCandidateNodesAbsolute}.
 */
public record CandidateLimits(int percentage, int absolute) {

    /** The limits of the args, defaulted (10 %, 100) and validated with upstream's messages. */
    static CandidateLimits of(DefaultPreemption.Args a) throws InvalidArgsException {
        int percentage = a.minCandidateNodesPercentage == null ? 10 : a.minCandidateNodesPercentage;
        int absolute = a.minCandidateNodesAbsolute == null ? 100 : a.minCandidateNodesAbsolute;
        if (percentage < 0 || percentage > 100) {
            throw new InvalidArgsException("minCandidateNodesPercentage", percentage, "not in valid range [0, 100]");
        }
        if (absolute < 0) {
            throw new InvalidArgsException("minCandidateNodesAbsolute", absolute, "not in valid range [0, inf)");
        }
        if (percentage == 0 && absolute == 0) {
            throw new InvalidArgsException(
                    "minCandidateNodesAbsolute",
                    absolute,
                    "cannot be zero at the same time as minCandidateNodesPercentage");
        }
        return new CandidateLimits(percentage, absolute);
    }

    /** upstream's numCandidates: a share of the potential nodes, at least the absolute minimum, at most all. */
    public int numCandidates(int numNodes) {
        int n = (int) ((long) numNodes * percentage / 100);
        n = Math.max(n, absolute);
        return Math.min(n, numNodes);
    }
}
