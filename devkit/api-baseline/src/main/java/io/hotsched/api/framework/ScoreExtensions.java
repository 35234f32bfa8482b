package io.hotsched.api.framework;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Rewrites a Score plugin's raw scores once per attempt, after all nodes were scored (upstream's
 * NormalizeScore). Afterwards every score must lie in [{@link ScorePlugin#MIN_NODE_SCORE},
 * {@link ScorePlugin#MAX_NODE_SCORE}], or the attempt fails.
 */
@ConsumerType
public interface ScoreExtensions {

    Status normalizeScore(CycleState state, PodInfo pod, NodeScores scores);
}
