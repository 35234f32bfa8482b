package io.hotsched.core.admin;

import java.util.List;
import java.util.Map;

/**
 * A plugin version in shadow (or observed beside another scheduler) and its figures since it began.
 *
 * @param plugin the plugin name; for observe-only mode {@code observe:<profile>}
 * @param servingVersion the version that serves (observe-only: the scheduler name observed)
 * @param state {@code shadow} (running), {@code quarantined}, {@code ended} (stopped, promoted, or a
 *     version gone), or {@code observing}
 * @param compared pods compared; {@code agreed} of them on which both chose the same node
 * @param faults pods on which the shadow run failed
 * @param skippedCpu pods skipped because the shadows were over their CPU share; {@code skippedQueue}
 *     because the shadow thread had a full queue; {@code skippedPending} (observe-only) because
 *     as many observed pods as the observer keeps already waited to be seen bound
 * @param meanServingMicros mean time the serving version took to decide a compared pod;
 *     {@code meanShadowMicros} the shadow's, on one thread
 * @param shadowCpuMillis CPU time the shadow thread spent on it
 * @param disagreementsByReason per reason (a refusing side's Filter reason, or the scores), pods
 * @param last the last disagreements, newest first
 */
public record ShadowView(
        String plugin,
        String servingVersion,
        String shadowVersion,
        String state,
        long compared,
        long agreed,
        long faults,
        long skippedCpu,
        long skippedQueue,
        long skippedPending,
        double agreement,
        long meanServingMicros,
        long meanShadowMicros,
        long shadowCpuMillis,
        Map<String, Long> disagreementsByReason,
        String lastFault,
        List<Disagreement> last) {

    /**
     * One pod on which the versions chose differently.
     *
     * @param servingNode the node the serving version chose (observe-only: the node it was bound to)
     * @param shadowNode the node the shadow would have chosen; null when none fitted
     * @param nodes the nodes whose Filter verdict differs: {@code node: serving verdict | shadow verdict}
     * @param scores the nodes whose score of the plugin differs: {@code node: serving → shadow}
     */
    public record Disagreement(
            String pod,
            String profile,
            String servingNode,
            String shadowNode,
            List<String> nodes,
            List<String> scores) {}
}
