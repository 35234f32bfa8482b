package io.hotsched.core.runtime;

import io.hotsched.api.framework.Code;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeInfoLister;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PreFilterPlugin;
import io.hotsched.api.framework.PreFilterResult;
import io.hotsched.api.framework.Status;
import io.hotsched.api.framework.ext.PreFilterTransformer;
import io.hotsched.api.framework.ext.Transformation;
import io.hotsched.core.runtime.GuardedCall.Outcome;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;

/**
 * PreFilter as upstream runs it, with Koordinator's transformers around it: the transformers may
 * replace the pod first, the plugins' node sets are intersected, a skip excludes the plugin from
 * Filter and from the extensions, and the transformers see the merged result last.
 */
record PreFilterRunner(PluginSlots slots, PluginCalls calls) {

    PreFilterOutcome run(CycleState state, PodInfo pod, NodeInfoLister nodes) {
        for (Slot<PreFilterTransformer> t : slots.preFilterTransformers) {
            Outcome<Transformation> o = calls.beforePreFilter(state, t, pod);
            if (o.failed()) {
                return failed(pod, null, o.failure());
            }
            Transformation tr = o.value();
            if (tr != null && !tr.status().isSuccess()) {
                return failed(pod, null, tr.status().withPlugin(t.name()));
            }
            if (tr != null && tr.pod() != null) {
                pod = tr.pod();
            }
        }
        PreFilterResult merged = PreFilterResult.ALL_NODES;
        Set<String> restricting = new TreeSet<>();
        Set<String> skipped = new HashSet<>();
        Status unschedulable = null;
        for (Slot<PreFilterPlugin> s : slots.preFilter) {
            Outcome<PreFilterResult> o = calls.preFilter(state, s, pod, nodes);
            if (o.failed()) {
                return failed(pod, null, o.failure());
            }
            PreFilterResult r = o.value();
            Status st = r == null ? Status.SUCCESS : r.status();
            if (st.isSkip()) {
                skipped.add(s.name());
                continue;
            }
            if (!st.isSuccess()) {
                if (st.code() == Code.UNSCHEDULABLE_AND_UNRESOLVABLE) {
                    skip(state, skipped);
                    return failed(pod, null, st.withPlugin(s.name()));
                }
                if (st.code() == Code.UNSCHEDULABLE || st.code() == Code.PENDING) {
                    if (unschedulable == null) {
                        unschedulable = st.withPlugin(s.name());
                    }
                    continue;
                }
                return failed(
                        pod,
                        null,
                        Status.error(PluginCall.PRE_FILTER.describe(s.name()) + ": " + st.message())
                                .withPlugin(s.name()));
            }
            if (r != null && !r.allNodes()) {
                restricting.add(s.name());
                merged = merged.intersect(r);
                if (merged.nodeNames().isEmpty()) {
                    skip(state, skipped);
                    return new PreFilterOutcome(
                            pod, merged, Status.unresolvable(noneLeft(restricting)), Set.copyOf(restricting));
                }
            }
        }
        skip(state, skipped);
        if (unschedulable != null) {
            return new PreFilterOutcome(pod, merged, unschedulable, Set.copyOf(restricting));
        }
        for (Slot<PreFilterTransformer> t : slots.preFilterTransformers) {
            Outcome<Status> o = calls.afterPreFilter(state, t, pod, merged);
            if (o.failed()) {
                return failed(pod, merged, o.failure());
            }
            if (o.value() != null && !o.value().isSuccess()) {
                return failed(pod, merged, o.value().withPlugin(t.name()));
            }
        }
        return new PreFilterOutcome(pod, merged, Status.SUCCESS, Set.copyOf(restricting));
    }

    private static PreFilterOutcome failed(PodInfo pod, PreFilterResult merged, Status st) {
        return new PreFilterOutcome(pod, merged, st, Set.of());
    }

    private static void skip(CycleState state, Set<String> skipped) {
        state.write(SkippedPlugins.FILTER, new SkippedPlugins(Set.copyOf(skipped)));
    }

    private static String noneLeft(Set<String> restricting) {
        return restricting.size() == 1
                ? "node(s) didn't satisfy plugin " + restricting.iterator().next()
                : "node(s) didn't satisfy plugin(s) " + goSlice(restricting) + " simultaneously";
    }

    /** Names as Go prints a slice of strings, as upstream's messages show them. */
    static String goSlice(Set<String> names) {
        return "[" + String.join(" ", names) + "]";
    }

    /** AddPod or RemovePod on every PreFilter plugin that did not skip; the first failure is an error. */
    Status runExtension(CycleState state, PodInfo pod, PodInfo other, NodeInfo node, boolean add) {
        Set<String> skipped = SkippedPlugins.filter(state);
        for (Slot<PreFilterPlugin> s : slots.preFilter) {
            if (skipped.contains(s.name())) {
                continue;
            }
            Status st = add ? calls.addPod(state, s, pod, other, node) : calls.removePod(state, s, pod, other, node);
            if (!st.isSuccess()) {
                return st;
            }
        }
        return Status.SUCCESS;
    }
}
