package io.hotsched.plugins.defaults.helper;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PreFilterPlugin;
import io.hotsched.api.framework.StateData;
import io.hotsched.api.framework.StateKey;
import io.hotsched.api.framework.Status;

/**
 * A Filter plugin that filters with what its own PreFilter wrote into the cycle state; Filter
 * without that state is an error, as upstream.
 *
 * @param <S> what PreFilter writes
 */
public interface StatefulFilter<S extends StateData> extends PreFilterPlugin, FilterPlugin {

    /** Where PreFilter writes what Filter reads. */
    StateKey<S> preFilterKey();

    /** Filter for one node, with {@code preFiltered}, what PreFilter wrote for {@code pod}. */
    Status filter(S preFiltered, PodInfo pod, NodeInfo node);

    @Override
    default Status filter(CycleState state, PodInfo pod, NodeInfo node) {
        S s = state.readOrNull(preFilterKey());
        return s == null ? States.notFound(preFilterKey()) : filter(s, pod, node);
    }
}
