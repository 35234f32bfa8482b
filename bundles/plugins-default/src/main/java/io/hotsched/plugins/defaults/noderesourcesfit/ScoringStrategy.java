package io.hotsched.plugins.defaults.noderesourcesfit;

/** How a node's resource scores, one per resource in [0, 100], combine into the node's score. */
interface ScoringStrategy {

    /**
     * @param requested per resource, what the node's pods and the pod request together
     * @param allocatable per resource, the node's allocatable; 0 means the resource is not scored
     */
    long score(long[] requested, long[] allocatable, long[] weights);

    /** LeastAllocated: free share of each resource, weighted mean. */
    ScoringStrategy LEAST_ALLOCATED = (requested, allocatable, weights) -> {
        long sum = 0;
        long weightSum = 0;
        for (int i = 0; i < requested.length; i++) {
            if (allocatable[i] == 0) {
                continue;
            }
            long s = requested[i] > allocatable[i] ? 0 : (allocatable[i] - requested[i]) * 100 / allocatable[i];
            sum += s * weights[i];
            weightSum += weights[i];
        }
        return weightSum == 0 ? 0 : sum / weightSum;
    };

    /** MostAllocated: used share of each resource (at most all of it), weighted mean. */
    ScoringStrategy MOST_ALLOCATED = (requested, allocatable, weights) -> {
        long sum = 0;
        long weightSum = 0;
        for (int i = 0; i < requested.length; i++) {
            if (allocatable[i] == 0) {
                continue;
            }
            sum += Math.min(requested[i], allocatable[i]) * 100 / allocatable[i] * weights[i];
            weightSum += weights[i];
        }
        return weightSum == 0 ? 0 : sum / weightSum;
    };
}
