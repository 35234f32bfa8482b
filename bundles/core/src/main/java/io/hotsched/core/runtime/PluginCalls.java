package io.hotsched.core.runtime;

import io.hotsched.api.framework.BindPlugin;
import io.hotsched.api.framework.Code;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeInfoLister;
import io.hotsched.api.framework.NodeScores;
import io.hotsched.api.framework.NodeToStatus;
import io.hotsched.api.framework.PermitPlugin;
import io.hotsched.api.framework.PermitResult;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PostBindPlugin;
import io.hotsched.api.framework.PostFilterPlugin;
import io.hotsched.api.framework.PostFilterResult;
import io.hotsched.api.framework.PreBindPlugin;
import io.hotsched.api.framework.PreEnqueuePlugin;
import io.hotsched.api.framework.PreFilterExtensions;
import io.hotsched.api.framework.PreFilterPlugin;
import io.hotsched.api.framework.PreFilterResult;
import io.hotsched.api.framework.PreScorePlugin;
import io.hotsched.api.framework.QueueSortPlugin;
import io.hotsched.api.framework.QueuedPodInfo;
import io.hotsched.api.framework.ReservePlugin;
import io.hotsched.api.framework.ScoreExtensions;
import io.hotsched.api.framework.ScorePlugin;
import io.hotsched.api.framework.Status;
import io.hotsched.api.framework.ext.FilterTransformer;
import io.hotsched.api.framework.ext.PostFilterTransformer;
import io.hotsched.api.framework.ext.PreFilterTransformer;
import io.hotsched.api.framework.ext.ScoreTransformer;
import io.hotsched.api.framework.ext.Transformation;
import io.hotsched.core.metrics.Histogram;
import io.hotsched.core.runtime.GuardedCall.Outcome;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Every call the framework makes into a plugin, transformer or plugin extension, each through the
 * {@link GuardedCall}: the only class that calls their methods (an architecture test holds the
 * build to it). The per-pod calls return the call's {@link Outcome}; the per-node ones (Filter,
 * FilterTransformer, Score) allocate nothing when the call succeeds.
 */
record PluginCalls(GuardedCall guard) {

    Outcome<Status> preEnqueue(Slot<PreEnqueuePlugin> s, PodInfo pod) {
        return guard.call(
                null, s.instance(), PluginCall.PRE_ENQUEUE, () -> s.plugin().preEnqueue(pod));
    }

    /** The plugin's order; null when it failed (the caller falls back to FIFO). */
    Boolean less(Slot<QueueSortPlugin> s, QueuedPodInfo a, QueuedPodInfo b) {
        return guard.call(
                        null,
                        s.instance(),
                        PluginCall.QUEUE_SORT,
                        () -> s.plugin().less(a, b))
                .value();
    }

    Outcome<Transformation> beforePreFilter(CycleState state, Slot<PreFilterTransformer> s, PodInfo pod) {
        return guard.call(
                state,
                s.instance(),
                PluginCall.BEFORE_PRE_FILTER,
                () -> s.plugin().beforePreFilter(state, pod));
    }

    Outcome<PreFilterResult> preFilter(CycleState state, Slot<PreFilterPlugin> s, PodInfo pod, NodeInfoLister nodes) {
        return guard.call(
                state, s.instance(), PluginCall.PRE_FILTER, () -> s.plugin().preFilter(state, pod, nodes));
    }

    Outcome<Status> afterPreFilter(CycleState state, Slot<PreFilterTransformer> s, PodInfo pod, PreFilterResult r) {
        return guard.call(
                state,
                s.instance(),
                PluginCall.AFTER_PRE_FILTER,
                () -> s.plugin().afterPreFilter(state, pod, r));
    }

    /** AddPod of the plugin's PreFilter extensions, as a status {@link GuardedCall#interpret interpreted}. */
    Status addPod(CycleState state, Slot<PreFilterPlugin> s, PodInfo pod, PodInfo added, NodeInfo node) {
        return extension(state, s, PluginCall.ADD_POD, pod, added, node);
    }

    /** RemovePod of the plugin's PreFilter extensions, as a status {@link GuardedCall#interpret interpreted}. */
    Status removePod(CycleState state, Slot<PreFilterPlugin> s, PodInfo pod, PodInfo removed, NodeInfo node) {
        return extension(state, s, PluginCall.REMOVE_POD, pod, removed, node);
    }

    private Status extension(
            CycleState state, Slot<PreFilterPlugin> s, PluginCall call, PodInfo pod, PodInfo other, NodeInfo node) {
        Outcome<Status> o = guard.call(state, s.instance(), call, () -> {
            PreFilterExtensions ext = s.plugin().preFilterExtensions();
            if (ext == null) {
                return Status.SUCCESS;
            }
            return call == PluginCall.ADD_POD
                    ? ext.addPod(state, pod, other, node)
                    : ext.removePod(state, pod, other, node);
        });
        return o.failed() ? o.failure() : GuardedCall.interpretAsError(call, s.name(), o.value());
    }

    /** A FilterTransformer's call for one node; a failure is a failed transformation. */
    Transformation beforeFilter(
            CycleState state,
            Slot<FilterTransformer> s,
            PodInfo pod,
            NodeInfo node,
            CallWatch.Tracker tracker,
            long limit) {
        long t0 = guard.begin(tracker, state, s.instance(), PluginCall.BEFORE_FILTER, limit);
        Transformation tr;
        try {
            tr = s.plugin().beforeFilter(state, pod, node);
        } catch (RuntimeException | LinkageError e) {
            return Transformation.failed(guard.thrown(state, s.instance(), PluginCall.BEFORE_FILTER, e, 0));
        } finally {
            GuardedCall.end(tracker);
        }
        Status late = guard.overtime(state, s.instance(), PluginCall.BEFORE_FILTER, t0, limit);
        return late != null ? Transformation.failed(late) : tr;
    }

    /**
     * A Filter plugin's call for one node, its status {@link GuardedCall#interpret interpreted}.
     *
     * @param succeeded the plugin's histogram of successful calls when the attempt is sampled, or null
     */
    Status filter(
            CycleState state,
            Slot<FilterPlugin> s,
            PodInfo pod,
            NodeInfo node,
            CallWatch.Tracker tracker,
            long limit,
            Histogram succeeded) {
        long t0 = guard.begin(tracker, state, s.instance(), PluginCall.FILTER, limit);
        long timed = succeeded != null ? System.nanoTime() : 0;
        Status st;
        try {
            st = s.plugin().filter(state, pod, node);
        } catch (RuntimeException | LinkageError e) {
            return guard.thrown(state, s.instance(), PluginCall.FILTER, e, timed);
        } finally {
            GuardedCall.end(tracker);
        }
        if (timed != 0) {
            guard.observe(timed, succeeded, s.name(), PluginCall.FILTER, st == null ? Code.SUCCESS : st.code());
        }
        Status late = guard.overtime(state, s.instance(), PluginCall.FILTER, t0, limit);
        return late != null ? late : GuardedCall.interpret(PluginCall.FILTER, s.name(), st);
    }

    Outcome<PostFilterResult> postFilter(
            CycleState state, Slot<PostFilterPlugin> s, PodInfo pod, NodeToStatus statuses) {
        return guard.call(
                state, s.instance(), PluginCall.POST_FILTER, () -> s.plugin().postFilter(state, pod, statuses));
    }

    Outcome<Boolean> afterPostFilter(
            CycleState state,
            Slot<PostFilterTransformer> s,
            PodInfo pod,
            NodeToStatus statuses,
            PostFilterResult result) {
        return guard.call(state, s.instance(), PluginCall.AFTER_POST_FILTER, () -> {
            s.plugin().afterPostFilter(state, pod, statuses, result);
            return Boolean.TRUE;
        });
    }

    Outcome<Status> preScore(CycleState state, Slot<PreScorePlugin> s, PodInfo pod, List<NodeInfo> nodes) {
        return guard.call(
                state, s.instance(), PluginCall.PRE_SCORE, () -> s.plugin().preScore(state, pod, nodes));
    }

    Outcome<Transformation> beforeScore(CycleState state, Slot<ScoreTransformer> s, PodInfo pod, List<NodeInfo> nodes) {
        return guard.call(
                state, s.instance(), PluginCall.BEFORE_SCORE, () -> s.plugin().beforeScore(state, pod, nodes));
    }

    /**
     * A Score plugin's call for one node: the score, or {@link Long#MIN_VALUE} once the call failed,
     * with the failure set in {@code failure} unless an earlier one is there.
     */
    long score(
            CycleState state,
            Slot<ScorePlugin> s,
            PodInfo pod,
            NodeInfo node,
            CallWatch.Tracker tracker,
            long limit,
            Histogram succeeded,
            AtomicReference<Status> failure) {
        long t0 = guard.begin(tracker, state, s.instance(), PluginCall.SCORE, limit);
        long timed = succeeded != null ? System.nanoTime() : 0;
        long v;
        try {
            v = s.plugin().score(state, pod, node);
        } catch (RuntimeException | LinkageError e) {
            failure.compareAndSet(null, guard.thrown(state, s.instance(), PluginCall.SCORE, e, timed));
            return Long.MIN_VALUE;
        } finally {
            GuardedCall.end(tracker);
        }
        if (timed != 0) {
            succeeded.observeSince(timed);
        }
        Status late = guard.overtime(state, s.instance(), PluginCall.SCORE, t0, limit);
        if (late != null) {
            failure.compareAndSet(null, late);
            return Long.MIN_VALUE;
        }
        return v;
    }

    /** NormalizeScore of the plugin's Score extensions, as a status {@link GuardedCall#interpret interpreted}. */
    Status normalizeScore(CycleState state, Slot<ScorePlugin> s, PodInfo pod, NodeScores scores) {
        Outcome<Status> o = guard.call(state, s.instance(), PluginCall.NORMALIZE_SCORE, () -> {
            ScoreExtensions ext = s.plugin().scoreExtensions();
            return ext == null ? Status.SUCCESS : ext.normalizeScore(state, pod, scores);
        });
        return o.failed() ? o.failure() : GuardedCall.interpretAsError(PluginCall.NORMALIZE_SCORE, s.name(), o.value());
    }

    Outcome<Status> reserve(CycleState state, Slot<ReservePlugin> s, PodInfo pod, String node) {
        return guard.call(
                state, s.instance(), PluginCall.RESERVE, () -> s.plugin().reserve(state, pod, node));
    }

    /** Unreserve; the failure, if any, is recorded and returned. */
    Status unreserve(CycleState state, Slot<ReservePlugin> s, PodInfo pod, String node) {
        return guard.call(state, s.instance(), PluginCall.UNRESERVE, () -> {
                    s.plugin().unreserve(state, pod, node);
                    return Status.SUCCESS;
                })
                .failure();
    }

    Outcome<PermitResult> permit(CycleState state, Slot<PermitPlugin> s, PodInfo pod, String node) {
        return guard.call(
                state, s.instance(), PluginCall.PERMIT, () -> s.plugin().permit(state, pod, node));
    }

    Outcome<Status> preBind(CycleState state, Slot<PreBindPlugin> s, PodInfo pod, String node) {
        return guard.call(
                state, s.instance(), PluginCall.PRE_BIND, () -> s.plugin().preBind(state, pod, node));
    }

    Outcome<Status> bind(CycleState state, Slot<BindPlugin> s, PodInfo pod, String node) {
        return guard.call(state, s.instance(), PluginCall.BIND, () -> s.plugin().bind(state, pod, node));
    }

    /** PostBind; the failure, if any, is recorded and returned. */
    Status postBind(CycleState state, Slot<PostBindPlugin> s, PodInfo pod, String node) {
        return guard.call(state, s.instance(), PluginCall.POST_BIND, () -> {
                    s.plugin().postBind(state, pod, node);
                    return Status.SUCCESS;
                })
                .failure();
    }
}
