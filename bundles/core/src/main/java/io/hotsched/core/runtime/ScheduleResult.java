package io.hotsched.core.runtime;

import io.hotsched.api.framework.PodInfo;

/**
 * The node chosen for a pod.
 *
 * @param pod the pod as the plugins saw it (a PreFilter transformer may have replaced it)
 * @param evaluatedNodes nodes filtered
 * @param feasibleNodes nodes that passed
 * @param scores the scores, when more than one node was feasible
 */
public record ScheduleResult(
        String suggestedHost, PodInfo pod, int evaluatedNodes, int feasibleNodes, ScoreTable scores) {}
