package io.hotsched.core.runtime;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeScores;
import io.hotsched.api.framework.Parallelizer;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PreScorePlugin;
import io.hotsched.api.framework.ScorePlugin;
import io.hotsched.api.framework.Status;
import io.hotsched.api.framework.ext.ScoreTransformer;
import io.hotsched.api.framework.ext.Transformation;
import io.hotsched.core.metrics.Histogram;
import io.hotsched.core.runtime.GuardedCall.Outcome;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * PreScore, then Score as upstream runs it, after Koordinator's ScoreTransformers: every Score plugin that did not
 * skip over every node in parallel (the first failure ends the phase, as upstream cancels), each
 * plugin's normalization, the range check, then the weights.
 */
record ScoreRunner(PluginSlots slots, PluginCalls calls, Parallelizer parallelizer) {

    /** The PreScore plugins; a skip excludes the plugin's Score (read back in {@link #run}). */
    Status preScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
        Set<String> skipped = new HashSet<>();
        for (Slot<PreScorePlugin> s : slots.preScore) {
            Outcome<Status> o = calls.preScore(state, s, pod, nodes);
            if (o.failed()) {
                return o.failure();
            }
            if (o.value() != null && o.value().isSkip()) {
                skipped.add(s.name());
                continue;
            }
            Status st = GuardedCall.interpretAsError(PluginCall.PRE_SCORE, s.name(), o.value());
            if (!st.isSuccess()) {
                return st;
            }
        }
        state.write(SkippedPlugins.SCORE, new SkippedPlugins(Set.copyOf(skipped)));
        return Status.SUCCESS;
    }

    /** Fills {@code out}: per node the weighted total and, per plugin, the normalized score. */
    Status run(CycleState state, PodInfo pod, List<NodeInfo> nodes, ScoreTable out) {
        List<NodeInfo> scored = nodes;
        for (Slot<ScoreTransformer> t : slots.scoreTransformers) {
            Outcome<Transformation> o = calls.beforeScore(state, t, pod, scored);
            if (o.failed()) {
                return o.failure();
            }
            Transformation tr = o.value();
            if (tr == null || tr == Transformation.UNCHANGED) {
                continue;
            }
            if (!tr.status().isSuccess()) {
                return tr.status();
            }
            if (tr.pod() != null) {
                pod = tr.pod();
            }
            if (tr.nodes() != null) {
                if (tr.nodes().size() != scored.size()) {
                    return Status.error("ScoreTransformer \"" + t.name() + "\" returned "
                                    + tr.nodes().size() + " nodes for " + scored.size())
                            .withPlugin(t.name());
                }
                scored = tr.nodes();
            }
        }
        List<Slot<ScorePlugin>> active = active(state);
        NodeScores[] perPlugin = new NodeScores[active.size()];
        for (int p = 0; p < perPlugin.length; p++) {
            perPlugin[p] = new NodeScores(scored);
        }
        Status st = scoreAll(state, pod, scored, active, perPlugin);
        if (st.isSuccess()) {
            st = normalize(state, pod, active, perPlugin);
        }
        if (!st.isSuccess()) {
            return st;
        }
        out.fill(
                scored,
                active.stream().map(Slot::name).toList(),
                perPlugin,
                active.stream()
                        .mapToInt(s -> slots.scoreWeights.getOrDefault(s.name(), 1))
                        .toArray());
        return Status.SUCCESS;
    }

    private List<Slot<ScorePlugin>> active(CycleState state) {
        Set<String> skipped = SkippedPlugins.score(state);
        List<Slot<ScorePlugin>> active = new ArrayList<>();
        for (Slot<ScorePlugin> s : slots.score) {
            if (!skipped.contains(s.name())) {
                active.add(s);
            }
        }
        return active;
    }

    private Status scoreAll(
            CycleState state, PodInfo pod, List<NodeInfo> nodes, List<Slot<ScorePlugin>> active, NodeScores[] out) {
        GuardedCall guard = calls.guard();
        long limit = guard.limit(PluginCall.SCORE);
        AtomicReference<Status> failure = new AtomicReference<>();
        Attempt attempt = Attempt.of(state);
        Histogram[] succeeded =
                guard.succeededHistograms(attempt != null && attempt.timesPlugins, active, PluginCall.SCORE);
        try {
            parallelizer.until(nodes.size(), i -> {
                if (failure.get() != null || attempt != null && attempt.givenUp()) {
                    return;
                }
                NodeInfo n = nodes.get(i);
                CallWatch.Tracker tracker = guard.tracker();
                for (int p = 0; p < out.length; p++) {
                    Histogram h = succeeded == null ? null : succeeded[p];
                    long v = calls.score(state, active.get(p), pod, n, tracker, limit, h, failure);
                    if (v == Long.MIN_VALUE && failure.get() != null) {
                        return;
                    }
                    out[p].set(i, v);
                }
            });
        } catch (RuntimeException e) {
            return Status.error(e);
        }
        return failure.get() == null ? Status.SUCCESS : failure.get();
    }

    private Status normalize(CycleState state, PodInfo pod, List<Slot<ScorePlugin>> active, NodeScores[] scores) {
        for (int p = 0; p < scores.length; p++) {
            Slot<ScorePlugin> s = active.get(p);
            Status st = calls.normalizeScore(state, s, pod, scores[p]);
            if (!st.isSuccess()) {
                return st;
            }
            NodeScores ns = scores[p];
            for (int i = 0; i < ns.size(); i++) {
                long v = ns.score(i);
                if (v < ScorePlugin.MIN_NODE_SCORE || v > ScorePlugin.MAX_NODE_SCORE) {
                    String msg = "applying score defaultWeights on Score plugins: plugin \"" + s.name()
                            + "\" returns an invalid score " + v + ", it should in the range of ["
                            + ScorePlugin.MIN_NODE_SCORE + ", " + ScorePlugin.MAX_NODE_SCORE + "] after normalizing";
                    return calls.guard().invalid(state, s.instance(), PluginCall.NORMALIZE_SCORE, msg);
                }
            }
        }
        return Status.SUCCESS;
    }
}
