package io.hotsched.core.runtime;

import io.hotsched.api.framework.Code;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.ExtenderException;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeScores;
import io.hotsched.api.framework.Parallelizer;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;
import io.hotsched.core.extender.Extenders;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One scheduling attempt's search (upstream's schedulePod): PreFilter, Filter over a rotating
 * window of nodes in parallel until enough feasible nodes are found, then PreScore, Score and
 * host selection. Used by one scheduling loop thread; keeps the rotating start index.
 */
public final class SchedulingAlgorithm {

    static final int MIN_FEASIBLE_NODES_TO_FIND = 100;
    static final int MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;

    private final Parallelizer parallelizer;
    private final Random random;
    private int nextStartNodeIndex;

    public SchedulingAlgorithm(Parallelizer parallelizer, Random random) {
        this(parallelizer, random, 0);
    }

    /** Starts the node rotation at {@code nextStartNodeIndex} (a loop taking over from another). */
    public SchedulingAlgorithm(Parallelizer parallelizer, Random random, int nextStartNodeIndex) {
        this.parallelizer = parallelizer;
        this.random = random;
        this.nextStartNodeIndex = nextStartNodeIndex;
    }

    /** How many feasible nodes are enough, as upstream computes it. */
    public static int numFeasibleNodesToFind(int percentage, int numAllNodes) {
        if (numAllNodes < MIN_FEASIBLE_NODES_TO_FIND || percentage >= 100) {
            return numAllNodes;
        }
        int pct = percentage;
        if (pct == 0) {
            pct = 50 - numAllNodes / 125;
            if (pct < MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND) {
                pct = MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND;
            }
        }
        int numNodes = (int) ((long) numAllNodes * pct / 100);
        return Math.max(numNodes, MIN_FEASIBLE_NODES_TO_FIND);
    }

    public int nextStartNodeIndex() {
        return nextStartNodeIndex;
    }

    /**
     * @throws FitError when no node fits (PostFilter has not run yet)
     * @throws SchedulingException when a plugin failed or there are no nodes
     */
    public ScheduleResult schedule(FrameworkImpl fw, CycleState state, PodInfo pod, Snapshot snapshot)
            throws FitError, SchedulingException {
        if (snapshot.size() == 0) {
            throw new SchedulingException(Status.error("no nodes available to schedule pods"));
        }
        PreFilterOutcome pre = fw.runPreFilter(state, pod, snapshot);
        pod = pre.pod();
        if (!pre.status().isSuccess()) {
            Status st = pre.status();
            if (!st.isRejection()) {
                throw new SchedulingException(st);
            }
            Map<String, Status> all = new HashMap<>();
            for (NodeInfo n : snapshot.list()) {
                all.put(n.name(), st);
            }
            throw new FitError(pod, snapshot.size(), new Diagnosis(all, null, st.message()));
        }
        List<NodeInfo> candidates = snapshot.list();
        Status absent = null;
        if (!pre.result().allNodes()) {
            candidates = new ArrayList<>(pre.result().nodeNames().size());
            for (String name : pre.result().nodeNames()) {
                NodeInfo n = snapshot.get(name);
                if (n != null) {
                    candidates.add(n);
                }
            }
            absent = Status.unresolvable("node(s) didn't satisfy plugin(s) " + PreFilterRunner.goSlice(pre.plugins()));
        }
        Map<String, Status> statuses = new HashMap<>();
        List<NodeInfo> feasible = null;
        String nominated = nominatedNode(pod);
        Extenders extenders = fw.extenders();
        if (nominated != null) {
            NodeInfo n = snapshot.get(nominated);
            if (n != null) {
                Status st = fw.runFilterPluginsWithNominatedPods(state, pod, n);
                if (st.code() == Code.ERROR) {
                    throw new SchedulingException(st);
                }
                if (st.isSuccess()) {
                    feasible = passExtenders(fw, state, extenders, pod, List.of(n), statuses);
                    if (feasible.isEmpty()) {
                        // the nominated node no longer fits: search all nodes, as upstream
                        feasible = null;
                    }
                }
            }
        }
        int evaluated = 1;
        if (feasible == null) {
            boolean scoring = fw.hasScorePlugins() || extenders.hasPrioritizers();
            int toFind = scoring || extenders.hasFilters()
                    ? numFeasibleNodesToFind(fw.percentageOfNodesToScore(), snapshot.size())
                    : 1;
            feasible = findFeasible(fw, state, pod, candidates, toFind, statuses);
            feasible = passExtenders(fw, state, extenders, pod, feasible, statuses);
            evaluated = feasible.size() + statuses.size();
        }
        if (feasible.isEmpty()) {
            throw new FitError(pod, snapshot.size(), new Diagnosis(statuses, absent, ""));
        }
        ScoreTable scores = new ScoreTable();
        if (feasible.size() == 1) {
            scores.flat(feasible);
            return result(fw, feasible.get(0).name(), pod, evaluated, 1, scores, statuses, 0);
        }
        Status st = fw.runPreScore(state, pod, feasible);
        if (!st.isSuccess()) {
            throw new SchedulingException(st);
        }
        if (fw.hasScorePlugins()) {
            st = fw.runScore(state, pod, feasible, scores);
            if (!st.isSuccess()) {
                throw new SchedulingException(st);
            }
        } else if (extenders.hasPrioritizers()) {
            // upstream: without Score plugins the plugin part of every node is 0, then extenders add
            scores.fill(feasible, List.of(), new NodeScores[0], new int[0]);
        } else {
            scores.flat(feasible);
        }
        if (extenders.hasPrioritizers()) {
            addExtenderScores(fw, state, extenders, pod, feasible, scores);
        }
        if (fw.shadowing()) {
            // the shadow breaks ties with the same seed: a random tie is no disagreement
            long seed = random.nextLong() | 1;
            return result(fw, TieBreak.pick(scores, seed), pod, evaluated, feasible.size(), scores, statuses, seed);
        }
        return new ScheduleResult(selectHost(scores), pod, evaluated, feasible.size(), scores);
    }

    /** With the rejected nodes kept for the framework's shadows; without them when it has none. */
    private static ScheduleResult result(
            FrameworkImpl fw,
            String host,
            PodInfo pod,
            int evaluated,
            int feasible,
            ScoreTable scores,
            Map<String, Status> rejected,
            long seed) {
        return fw.shadowing()
                ? new ScheduleResult(host, pod, evaluated, feasible, scores, rejected, seed)
                : new ScheduleResult(host, pod, evaluated, feasible, scores);
    }

    private static List<NodeInfo> passExtenders(
            FrameworkImpl fw,
            CycleState state,
            Extenders extenders,
            PodInfo pod,
            List<NodeInfo> feasible,
            Map<String, Status> statuses)
            throws SchedulingException {
        if (extenders.isEmpty() || feasible.isEmpty() || !extenders.filtersFor(pod)) {
            return feasible;
        }
        CallWatch.Tracker wait = fw.beginExtenderWait(state, "filter");
        try {
            return extenders.filter(pod, feasible, statuses);
        } catch (ExtenderException e) {
            throw new SchedulingException(Status.error(e.getMessage()));
        } finally {
            FrameworkImpl.endExtenderWait(wait);
        }
    }

    private static void addExtenderScores(
            FrameworkImpl fw,
            CycleState state,
            Extenders extenders,
            PodInfo pod,
            List<NodeInfo> feasible,
            ScoreTable scores) {
        List<String> order = scores.nodes();
        CallWatch.Tracker wait = fw.beginExtenderWait(state, "prioritize");
        List<Extenders.Scores> answers;
        try {
            answers = extenders.prioritize(pod, feasible);
        } finally {
            FrameworkImpl.endExtenderWait(wait);
        }
        for (Extenders.Scores s : answers) {
            long[] raw = new long[order.size()];
            for (int i = 0; i < raw.length; i++) {
                raw[i] = s.raw().getOrDefault(order.get(i), 0L);
            }
            scores.addExtender(s.extender(), raw, s.factor());
        }
    }

    private List<NodeInfo> findFeasible(
            FrameworkImpl fw,
            CycleState state,
            PodInfo pod,
            List<NodeInfo> nodes,
            int toFind,
            Map<String, Status> statuses)
            throws SchedulingException {
        int n = nodes.size();
        if (n == 0) {
            return List.of();
        }
        NodeInfo[] found = new NodeInfo[Math.min(toFind, n)];
        AtomicInteger foundLen = new AtomicInteger();
        // allocated on the first failure: most attempts visit a tenth of the nodes and fail none
        AtomicReference<Status[]> failedHolder = new AtomicReference<>();
        int start = nextStartNodeIndex % n;
        final PodInfo p = pod;
        Attempt attempt = Attempt.of(state);
        // an error ends the search (upstream cancels the other pieces): the attempt fails anyway
        AtomicBoolean errored = new AtomicBoolean();
        FilterRunner.FilterRun run = fw.filterRun(state);
        parallelizer.until(n, i -> {
            if (foundLen.get() >= found.length || errored.get() || attempt != null && attempt.givenUp()) {
                return;
            }
            NodeInfo node = nodes.get((start + i) % n);
            Status st = fw.runFilterPluginsWithNominatedPods(state, p, node, run);
            if (st.code() == Code.ERROR) {
                errored.set(true);
            }
            if (st.isSuccess()) {
                int len = foundLen.incrementAndGet();
                if (len > found.length) {
                    foundLen.decrementAndGet();
                } else {
                    found[len - 1] = node;
                }
            } else {
                Status[] f = failedHolder.get();
                if (f == null) {
                    failedHolder.compareAndSet(null, new Status[n]);
                    f = failedHolder.get();
                }
                f[i] = st;
            }
        });
        int failedCount = 0;
        Status[] failed = failedHolder.get();
        for (int i = 0; failed != null && i < n; i++) {
            Status st = failed[i];
            if (st == null) {
                continue;
            }
            if (st.code() == Code.ERROR) {
                throw new SchedulingException(st);
            }
            statuses.put(nodes.get((start + i) % n).name(), st);
            failedCount++;
        }
        int feasibleCount = foundLen.get();
        nextStartNodeIndex = (nextStartNodeIndex + feasibleCount + failedCount) % n;
        return Arrays.asList(Arrays.copyOf(found, feasibleCount));
    }

    /** The node with the highest total; ties broken uniformly at random (reservoir sampling). */
    String selectHost(ScoreTable scores) throws SchedulingException {
        List<String> nodes = scores.nodes();
        if (nodes.isEmpty()) {
            throw new SchedulingException(Status.error("empty priorityList"));
        }
        int chosen = 0;
        long max = scores.total(0);
        int ties = 1;
        for (int i = 1; i < nodes.size(); i++) {
            long s = scores.total(i);
            if (s > max) {
                max = s;
                chosen = i;
                ties = 1;
            } else if (s == max) {
                ties++;
                if (random.nextInt(ties) == 0) {
                    chosen = i;
                }
            }
        }
        return nodes.get(chosen);
    }

    private static String nominatedNode(PodInfo pod) {
        var status = pod.pod().getStatus();
        String n = status == null ? null : status.getNominatedNodeName();
        return n == null || n.isEmpty() ? null : n;
    }
}
