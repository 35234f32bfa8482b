package io.hotsched.plugins.defaults.noderesourcesfit;

/**
 * How a node's resource scores, one per resource in [0, 100], combine into the node's score. The
 * caller loops over the resources itself, so scoring a node allocates nothing.
 */
interface ScoringStrategy {

    /** Marks a resource left out of the weighted mean. */
    long LEFT_OUT = -1;

    /**
     * The score of one resource in [0, 100], or {@link #LEFT_OUT}.
     *
     * @param requested what the node's pods and the pod request together
     * @param allocatable the node's allocatable, above 0 (resources with none are not scored)
     */
    long resourceScore(long requested, long allocatable);

    /** The node's score from the weighted sum of the resource scores and the sum of their weights. */
    default long combine(long weightedSum, long weightSum) {
        return weightSum == 0 ? 0 : weightedSum / weightSum;
    }

    /** LeastAllocated: free share of each resource, weighted mean. */
    ScoringStrategy LEAST_ALLOCATED =
            (requested, allocatable) -> requested > allocatable ? 0 : (allocatable - requested) * 100 / allocatable;

    /** MostAllocated: used share of each resource (at most all of it), weighted mean. */
    ScoringStrategy MOST_ALLOCATED = (requested, allocatable) -> Math.min(requested, allocatable) * 100 / allocatable;
}
