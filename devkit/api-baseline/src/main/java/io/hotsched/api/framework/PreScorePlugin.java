package io.hotsched.api.framework;

import java.util.List;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Runs once per attempt over the feasible nodes, before Score, on the scheduling thread: computes
 * in the {@link CycleState} what Score will need. {@link Code#SKIP} means this plugin's Score will
 * not run for the pod; any other non-success code fails the attempt.
 */
@ConsumerType
public interface PreScorePlugin extends Plugin {

    Status preScore(CycleState state, PodInfo pod, List<NodeInfo> feasibleNodes);
}
