package io.hotsched.core.runtime;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;
import io.hotsched.api.framework.ext.FilterTransformer;
import io.hotsched.api.framework.ext.Transformation;
import io.hotsched.core.metrics.Histogram;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Filter for one node: the FilterTransformers, then the Filter plugins in order, the first
 * non-success winning; when pods of at least the pod's priority are nominated to the node, the
 * plugins run twice (with those pods counted, then without) and the node passes only if both pass,
 * as upstream's RunFilterPluginsWithNominatedPods.
 */
record FilterRunner(
        PluginSlots slots,
        PluginCalls calls,
        PreFilterRunner preFilter,
        Function<String, List<PodInfo>> nominatedPods) {

    /**
     * What Filter reads from the attempt, read once for all its nodes: which plugins PreFilter
     * skipped, the time-out, and (when the attempt is sampled) each plugin's histogram. Per node these
     * cycle-state look-ups were a fifth of the scheduling loop's time.
     */
    public static final class FilterRun {
        final boolean[] skip;
        final long limit;
        /** Null when the attempt's plugin calls are not timed. */
        final Histogram[] succeeded;

        FilterRun(List<Slot<FilterPlugin>> filter, GuardedCall guard, CycleState state) {
            Set<String> skipped = SkippedPlugins.filter(state);
            skip = new boolean[filter.size()];
            for (int i = 0; i < skip.length; i++) {
                skip[i] = skipped.contains(filter.get(i).name());
            }
            limit = guard.limit(PluginCall.FILTER);
            succeeded = guard.succeededHistograms(Attempt.timesPlugins(state), filter, PluginCall.FILTER);
        }
    }

    FilterRun filterRun(CycleState state) {
        return new FilterRun(slots.filter, calls.guard(), state);
    }

    Status runWithNominatedPods(CycleState state, PodInfo pod, NodeInfo node, FilterRun run) {
        CallWatch.Tracker tracker = calls.guard().tracker();
        for (Slot<FilterTransformer> t : slots.filterTransformers) {
            Transformation tr = calls.beforeFilter(state, t, pod, node, tracker, run.limit);
            if (tr == null || tr == Transformation.UNCHANGED) {
                continue;
            }
            if (!tr.status().isSuccess()) {
                return tr.status().withPlugin(t.name());
            }
            if (tr.pod() != null) {
                pod = tr.pod();
            }
            if (tr.node() != null) {
                node = tr.node();
            }
        }
        List<PodInfo> nominated = nominatedPods.apply(node.name());
        if (!nominated.isEmpty()) {
            NodeInfo withNominated = null;
            CycleState stateWithNominated = null;
            for (PodInfo n : nominated) {
                if (n.priority() >= pod.priority() && !n.uid().equals(pod.uid())) {
                    if (withNominated == null) {
                        withNominated = node.copy();
                        stateWithNominated = state.copy();
                    }
                    withNominated.addPod(n);
                    Status st = preFilter.runExtension(stateWithNominated, pod, n, withNominated, true);
                    if (!st.isSuccess()) {
                        return st;
                    }
                }
            }
            if (withNominated != null) {
                Status first = run(stateWithNominated, pod, withNominated, run, tracker);
                if (!first.isSuccess()) {
                    return first;
                }
            }
        }
        return run(state, pod, node, run, tracker);
    }

    private Status run(CycleState state, PodInfo pod, NodeInfo node, FilterRun run, CallWatch.Tracker tracker) {
        List<Slot<FilterPlugin>> filter = slots.filter;
        for (int i = 0; i < filter.size(); i++) {
            if (run.skip[i]) {
                continue;
            }
            Histogram succeeded = run.succeeded == null ? null : run.succeeded[i];
            Status st = calls.filter(state, filter.get(i), pod, node, tracker, run.limit, succeeded);
            if (!st.isSuccess()) {
                return st;
            }
        }
        return Status.SUCCESS;
    }
}
