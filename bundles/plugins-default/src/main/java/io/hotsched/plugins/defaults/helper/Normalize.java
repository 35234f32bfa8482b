package io.hotsched.plugins.defaults.helper;

import io.hotsched.api.framework.NodeScores;
import io.hotsched.api.framework.ScoreExtensions;
import io.hotsched.api.framework.ScorePlugin;
import io.hotsched.api.framework.Status;

/** Upstream's DefaultNormalizeScore. */
public final class Normalize {

    /** NormalizeScore as upstream's DefaultNormalizeScore(MaxNodeScore, false): the largest raw score gets 100. */
    public static final ScoreExtensions BY_MAX = (state, pod, scores) -> {
        defaultNormalize(scores, false);
        return Status.SUCCESS;
    };

    /** NormalizeScore as upstream's DefaultNormalizeScore(MaxNodeScore, true): the largest raw score gets 0. */
    public static final ScoreExtensions BY_MAX_REVERSED = (state, pod, scores) -> {
        defaultNormalize(scores, true);
        return Status.SUCCESS;
    };

    private Normalize() {}

    /**
     * Scales scores to [0, 100] by the largest (integer division); with {@code reverse}, 100 minus
     * that. When every score is 0: all 0, or all 100 with {@code reverse}.
     */
    public static void defaultNormalize(NodeScores scores, boolean reverse) {
        long max = 0;
        for (int i = 0; i < scores.size(); i++) {
            max = Math.max(max, scores.score(i));
        }
        long maxScore = ScorePlugin.MAX_NODE_SCORE;
        for (int i = 0; i < scores.size(); i++) {
            long s = max == 0 ? 0 : maxScore * scores.score(i) / max;
            scores.set(i, reverse ? maxScore - s : s);
        }
    }
}
