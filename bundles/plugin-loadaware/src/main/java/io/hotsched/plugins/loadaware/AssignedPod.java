package io.hotsched.plugins.loadaware;

/**
 * A pod placed on a node, as the load computation sees it.
 *
 * @param key namespace/name, as NodeMetric reports pods
 * @param estimated the estimator's vector; null when it is all zero
 * @param timestampMillis when it was scheduled (PodScheduled's time, else when the plugin first saw it)
 * @param deadlineMillis until when its reported usage is not trusted over the estimate; 0 for never
 */
public record AssignedPod(
        String uid, String key, boolean prod, long[] estimated, long timestampMillis, long deadlineMillis) {}
