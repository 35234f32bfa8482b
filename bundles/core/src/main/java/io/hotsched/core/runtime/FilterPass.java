package io.hotsched.core.runtime;

import io.hotsched.api.framework.Code;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeInfoLister;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The part of a decision that acts on nothing: PreFilter, Filter over given nodes, PreScore and
 * Score of one framework for one pod, in a cycle state of its own, on the calling thread. What a
 * shadow and an observe-only profile both run; neither goes on to Reserve, Permit or binding.
 */
final class FilterPass {

    /**
     * @param refused the nodes refused, with why
     * @param scores the feasible nodes' scores (flat for a single one); empty when none fits or on a fault
     * @param fault the first error of a plugin call; null when the pass ran
     */
    record Outcome(CycleState state, Map<String, Status> refused, ScoreTable scores, String fault) {

        /** The node chosen with {@code seed} for ties; null on a fault or when no node fits. */
        String pick(long seed) {
            return fault != null ? null : TieBreak.pick(scores, seed);
        }
    }

    private FilterPass() {}

    /** A refusal as the figures show it: {@code Plugin: message}, or the message alone (an extender's). */
    static String reason(Status st) {
        if (st == null) {
            return null;
        }
        return st.plugin() == null ? st.message() : st.plugin() + ": " + st.message();
    }

    /**
     * @param names the nodes to filter, in order
     * @param given verdicts that stand without asking the plugins again: a node refused without a
     *     plugin (by an extender) keeps its verdict, and so does a node missing from {@code nodes}
     */
    static Outcome run(
            FrameworkImpl framework,
            PodInfo pod,
            NodeInfoLister nodes,
            Collection<String> names,
            Map<String, Status> given) {
        CycleState state = new CycleState();
        Map<String, Status> refused = new HashMap<>();
        List<NodeInfo> feasible = new ArrayList<>();
        String fault = null;
        PreFilterOutcome pre = framework.runPreFilter(state, pod, nodes);
        if (pre.status().code() == Code.ERROR) {
            fault = pre.status().message();
        } else if (!pre.status().isSuccess()) {
            for (String n : names) {
                refused.put(n, pre.status());
            }
        } else {
            fault = filter(framework, state, pre, nodes, names, given, refused, feasible);
        }
        ScoreTable scores = new ScoreTable();
        if (fault == null && feasible.size() == 1) {
            scores.flat(feasible);
        } else if (fault == null && feasible.size() > 1) {
            Status st = framework.runPreScore(state, pre.pod(), feasible);
            if (st.isSuccess() && framework.hasScorePlugins()) {
                st = framework.runScore(state, pre.pod(), feasible, scores);
            } else if (st.isSuccess()) {
                scores.flat(feasible);
            }
            if (!st.isSuccess()) {
                fault = st.message();
                scores = new ScoreTable();
            }
        }
        return new Outcome(state, refused, scores, fault);
    }

    /** Filters {@code names} into {@code refused} and {@code feasible}; the first fault, or null. */
    private static String filter(
            FrameworkImpl framework,
            CycleState state,
            PreFilterOutcome pre,
            NodeInfoLister nodes,
            Collection<String> names,
            Map<String, Status> given,
            Map<String, Status> refused,
            List<NodeInfo> feasible) {
        Set<String> allowed = pre.result().allNodes() ? null : pre.result().nodeNames();
        FilterRunner.FilterRun run = framework.filterRun(state);
        for (String name : names) {
            Status standing = given.get(name);
            NodeInfo node = nodes.get(name);
            if (standing != null && standing.plugin() == null || node == null) {
                if (standing != null) {
                    refused.put(name, standing);
                }
                continue;
            }
            Status st = allowed != null && !allowed.contains(name)
                    ? Status.unresolvable("node(s) didn't satisfy plugin(s) " + PreFilterRunner.goSlice(pre.plugins()))
                    : framework.runFilterPluginsWithNominatedPods(state, pre.pod(), node, run);
            if (st.code() == Code.ERROR) {
                return st.message();
            }
            if (st.isSuccess()) {
                feasible.add(node);
            } else {
                refused.put(name, st);
            }
        }
        return null;
    }
}
