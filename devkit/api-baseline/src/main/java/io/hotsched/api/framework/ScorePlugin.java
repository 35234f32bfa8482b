package io.hotsched.api.framework;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Ranks one feasible node for the pod. Called for many nodes in parallel from the framework's
 * worker threads; must be fast and must not allocate per node in the common case.
 *
 * <p>The score is a number in [{@value #MIN_NODE_SCORE}, {@value #MAX_NODE_SCORE}] after the
 * plugin's {@link #scoreExtensions() normalization}; the framework multiplies it by the plugin's
 * configured weight and sums over plugins. A plugin that cannot score throws; the exception fails
 * the attempt with an error status naming the plugin (kept off the common path: no status object
 * per node).
 */
@ConsumerType
public interface ScorePlugin extends Plugin {

    long MAX_NODE_SCORE = 100;
    long MIN_NODE_SCORE = 0;

    long score(CycleState state, PodInfo pod, NodeInfo node);

    /** Normalization of this plugin's scores, or null when they are already in range. */
    default ScoreExtensions scoreExtensions() {
        return null;
    }
}
