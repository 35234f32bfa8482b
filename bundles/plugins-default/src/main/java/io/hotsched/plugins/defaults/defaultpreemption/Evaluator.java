package io.hotsched.plugins.defaults.defaultpreemption;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.hotsched.api.framework.Code;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.Extender;
import io.hotsched.api.framework.ExtenderException;
import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeToStatus;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PostFilterResult;
import io.hotsched.api.framework.Status;
import io.hotsched.api.framework.Victims;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntUnaryOperator;

/**
 * One preemption attempt, as upstream's evaluator runs it: is the pod allowed to preempt; which
 * nodes could take it after evictions (a dry run on copies, from a random offset); which of them to
 * choose; then the victims are marked and deleted and lower-priority nominations on that node
 * cleared.
 */
public final class Evaluator {

    static final String NOT_HELPFUL = "Preemption is not helpful for scheduling";
    static final String NOT_ELIGIBLE_NEVER = "not eligible due to preemptionPolicy=Never.";
    static final String NOT_ELIGIBLE_TERMINATING = "not eligible due to a terminating pod on the nominated node.";
    static final String DISRUPTION_TARGET = "DisruptionTarget";
    static final String PREEMPTION_BY_SCHEDULER = "PreemptionByScheduler";
    /** Upstream's feature gate of asynchronous preemption (KEP-4832). */
    static final String ASYNC_PREEMPTION = "SchedulerAsyncPreemption";

    /** What the dry run found: candidates (budget-respecting first), and why other nodes failed. */
    public record DryRun(List<Candidate> candidates, Map<String, Status> failures) {}

    /** Whether the pod may preempt, and why not. */
    public record Eligibility(boolean eligible, String message) {}

    private final Handle handle;
    private final String pluginName;
    private final CandidateLimits limits;
    private final IntUnaryOperator offsets;
    private final VictimSelection victims;
    private final Eviction eviction;

    /** @param offsets the first node to try among n potential nodes (upstream: random) */
    public Evaluator(Handle handle, String pluginName, CandidateLimits limits, IntUnaryOperator offsets) {
        this.handle = handle;
        this.pluginName = pluginName;
        this.limits = limits;
        this.offsets = offsets;
        this.victims = new VictimSelection(handle);
        this.eviction = new Eviction(handle, pluginName);
    }

    /** What evicts the chosen candidate's victims, and knows which preemptions are still running. */
    Eviction eviction() {
        return eviction;
    }

    Evaluator(Handle handle, String pluginName, CandidateLimits limits) {
        this(handle, pluginName, limits, n -> ThreadLocalRandom.current().nextInt(n));
    }

    /** The whole PostFilter: the result is not yet prefixed with "preemption: ". */
    PostFilterResult preempt(CycleState state, PodInfo pod, NodeToStatus statuses) {
        Instant now = Instant.now();
        String nominated = nominatedNodeName(pod.pod());
        Eligibility e = eligibility(pod, nominated == null ? null : statuses.get(nominated));
        if (!e.eligible()) {
            return PostFilterResult.of(Status.unschedulable(e.message()));
        }
        List<NodeInfo> all = handle.snapshot().list();
        if (all.isEmpty()) {
            return PostFilterResult.of(Status.error("no nodes available"));
        }
        List<NodeInfo> potential = statuses.nodesWith(handle.snapshot(), Code.UNSCHEDULABLE);
        Map<String, Status> failures = Map.of();
        List<Candidate> candidates = List.of();
        if (!potential.isEmpty()) {
            DryRun dr = dryRun(
                    state,
                    pod,
                    potential,
                    pdbs(),
                    offsets.applyAsInt(potential.size()),
                    numCandidates(potential.size()),
                    now);
            candidates = dr.candidates();
            failures = dr.failures();
            if (candidates.isEmpty()) {
                for (Status s : failures.values()) {
                    if (s.code() == Code.ERROR) {
                        return PostFilterResult.of(s);
                    }
                }
            }
        }
        if (candidates.isEmpty()) {
            NodeToStatus why = new NodeToStatus(failures, Status.unresolvable(NOT_HELPFUL));
            String message = "0/" + all.size() + " nodes are available: " + why.histogram(all.size()) + ".";
            // "" clears a nomination left from an earlier attempt
            return new PostFilterResult(Status.unschedulable(message), "");
        }
        try {
            candidates = callExtenders(pod, candidates);
        } catch (ExtenderException ex) {
            return PostFilterResult.of(Status.error(ex.getMessage()));
        }
        Candidate best = CandidatePicker.pick(candidates, now);
        if (best == null) {
            return PostFilterResult.of(Status.unschedulable("no candidate node for preemption"));
        }
        if (handle.featureEnabled(ASYNC_PREEMPTION)) {
            eviction.later(best, pod);
        } else {
            Status prepared = eviction.now(best, pod);
            if (!prepared.isSuccess()) {
                return PostFilterResult.of(prepared);
            }
        }
        return PostFilterResult.nominated(best.nodeName());
    }

    /**
     * upstream's callExtenders: each interested extender with a preempt verb narrows the
     * candidates in turn (an ignorable one's error is skipped, and so is a node it left without
     * victims); the candidates become what the last one answered.
     */
    List<Candidate> callExtenders(PodInfo pod, List<Candidate> candidates) {
        List<Extender> extenders = handle.extenders();
        if (extenders.isEmpty() || candidates.isEmpty()) {
            return candidates;
        }
        Map<String, Victims> victims = new LinkedHashMap<>();
        for (Candidate c : candidates) {
            victims.put(c.nodeName(), new Victims(c.victims(), c.numPDBViolations()));
        }
        boolean asked = false;
        for (Extender e : extenders) {
            if (!e.supportsPreemption() || !e.isInterested(pod)) {
                continue;
            }
            Map<String, Victims> answer;
            try {
                answer = new LinkedHashMap<>(e.processPreemption(pod, victims, handle.snapshot()));
            } catch (ExtenderException ex) {
                if (e.isIgnorable()) {
                    continue;
                }
                throw ex;
            }
            for (var it = answer.entrySet().iterator(); it.hasNext(); ) {
                var entry = it.next();
                if (entry.getValue() == null || entry.getValue().pods().isEmpty()) {
                    if (!e.isIgnorable()) {
                        throw new ExtenderException(
                                "expected at least one victim pod on node \"" + entry.getKey() + "\"");
                    }
                    it.remove();
                }
            }
            victims = answer;
            asked = true;
            if (victims.isEmpty()) {
                break;
            }
        }
        if (!asked) {
            return candidates;
        }
        List<Candidate> out = new ArrayList<>();
        victims.forEach((node, v) -> out.add(new Candidate(node, v.pods(), (int) v.numPDBViolations())));
        return out;
    }

    /** upstream's numCandidates (see {@link CandidateLimits#numCandidates}). */
    public int numCandidates(int numNodes) {
        return limits.numCandidates(numNodes);
    }

    public Eligibility eligibility(PodInfo pod, Status nominatedNodeStatus) {
        if ("Never"
                .equals(pod.pod().getSpec() == null ? null : pod.pod().getSpec().getPreemptionPolicy())) {
            return new Eligibility(false, NOT_ELIGIBLE_NEVER);
        }
        String nominated = nominatedNodeName(pod.pod());
        if (nominated != null) {
            // the nominated node cannot take the pod any more: look for another
            if (nominatedNodeStatus != null && nominatedNodeStatus.code() == Code.UNSCHEDULABLE_AND_UNRESOLVABLE) {
                return new Eligibility(true, "");
            }
            NodeInfo node = handle.snapshot().get(nominated);
            if (node != null) {
                for (PodInfo p : node.pods()) {
                    if (p.priority() < pod.priority() && terminatingByPreemption(p.pod())) {
                        return new Eligibility(false, NOT_ELIGIBLE_TERMINATING);
                    }
                }
            }
        }
        return new Eligibility(true, "");
    }

    private static boolean terminatingByPreemption(Pod p) {
        if (p.getMetadata().getDeletionTimestamp() == null
                || p.getStatus() == null
                || p.getStatus().getConditions() == null) {
            return false;
        }
        for (PodCondition c : p.getStatus().getConditions()) {
            if (DISRUPTION_TARGET.equals(c.getType())
                    && "True".equals(c.getStatus())
                    && PREEMPTION_BY_SCHEDULER.equals(c.getReason())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Tries the potential nodes from {@code offset} on, wrapping around, on copies of node and
     * state, until at least one budget-respecting candidate is found and {@code numCandidates} in
     * all. Each of the two candidate lists holds at most {@code numCandidates}.
     */
    public DryRun dryRun(
            CycleState state,
            PodInfo pod,
            List<NodeInfo> potential,
            List<PodDisruptionBudget> pdbs,
            int offset,
            int numCandidates,
            Instant now) {
        DisruptionBudgets budgets = new DisruptionBudgets(pdbs);
        List<Candidate> nonViolating = new ArrayList<>();
        List<Candidate> violating = new ArrayList<>();
        Map<String, Status> failures = new HashMap<>();
        AtomicBoolean enough = new AtomicBoolean();
        int n = potential.size();
        handle.parallelizer().until(n, i -> {
            if (enough.get()) {
                return;
            }
            NodeInfo copy = potential.get((offset + i) % n).copy();
            VictimSelection.Result r = victims.select(state.copy(), pod, copy, budgets, now);
            Status st = r.status();
            if (st.isSuccess() && !r.victims().isEmpty()) {
                Candidate c = new Candidate(copy.name(), r.victims(), r.numPDBViolations());
                synchronized (nonViolating) {
                    List<Candidate> list = c.numPDBViolations() == 0 ? nonViolating : violating;
                    if (list.size() < numCandidates) {
                        list.add(c);
                    }
                    if (!nonViolating.isEmpty() && nonViolating.size() + violating.size() >= numCandidates) {
                        enough.set(true);
                    }
                }
                return;
            }
            if (st.isSuccess()) {
                st = Status.error("expected at least one victim pod on node \"" + copy.name() + "\"");
            }
            synchronized (nonViolating) {
                failures.put(copy.name(), st);
            }
        });
        List<Candidate> out = new ArrayList<>(nonViolating);
        out.addAll(violating);
        return new DryRun(out, failures);
    }

    /** The chosen candidate among {@code candidates} (null when there are none). */
    public Candidate select(List<Candidate> candidates, Instant now) {
        return CandidatePicker.pick(candidates, now);
    }

    /** The PodDisruptionBudgets the cluster connection reported. */
    List<PodDisruptionBudget> pdbs() {
        List<PodDisruptionBudget> out = new ArrayList<>();
        for (HasMetadata o : handle.objects("PodDisruptionBudget")) {
            if (o instanceof PodDisruptionBudget pdb) {
                out.add(pdb);
            }
        }
        return out;
    }

    static Pod withDisruptionTarget(Pod pod, String schedulerName) {
        PodStatus s = pod.getStatus() == null ? new PodStatus() : pod.getStatus();
        List<PodCondition> conditions =
                s.getConditions() == null ? new ArrayList<>() : new ArrayList<>(s.getConditions());
        conditions.removeIf(c -> DISRUPTION_TARGET.equals(c.getType()));
        conditions.add(new PodConditionBuilder()
                .withType(DISRUPTION_TARGET)
                .withStatus("True")
                .withReason(PREEMPTION_BY_SCHEDULER)
                .withMessage(schedulerName + ": preempting to accommodate a higher priority pod")
                .withLastTransitionTime(Instant.now().toString())
                .build());
        s.setConditions(conditions);
        pod.setStatus(s);
        return pod;
    }

    static Pod withoutNomination(Pod pod) {
        if (pod.getStatus() != null) {
            pod.getStatus().setNominatedNodeName(null);
        }
        return pod;
    }

    static String nominatedNodeName(Pod pod) {
        String n = pod.getStatus() == null ? null : pod.getStatus().getNominatedNodeName();
        return n == null || n.isEmpty() ? null : n;
    }
}
