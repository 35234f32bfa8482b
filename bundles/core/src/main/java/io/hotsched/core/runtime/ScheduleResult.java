package io.hotsched.core.runtime;

import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;
import java.util.Map;

/**
 * The node chosen for a pod.
 *
 * @param pod the pod as the plugins saw it (a PreFilter transformer may have replaced it)
 * @param evaluatedNodes nodes filtered
 * @param feasibleNodes nodes that passed
 * @param scores the scores, when more than one node was feasible
 * @param rejected the status of each node filtered that did not pass (a shadow filters the same nodes)
 * @param tieSeed the seed ties were broken with ({@link TieBreak}) when the framework has shadows; 0 otherwise
 */
public record ScheduleResult(
        String suggestedHost,
        PodInfo pod,
        int evaluatedNodes,
        int feasibleNodes,
        ScoreTable scores,
        Map<String, Status> rejected,
        long tieSeed) {

    public ScheduleResult(String suggestedHost, PodInfo pod, int evaluatedNodes, int feasibleNodes, ScoreTable scores) {
        this(suggestedHost, pod, evaluatedNodes, feasibleNodes, scores, Map.of(), 0);
    }
}
