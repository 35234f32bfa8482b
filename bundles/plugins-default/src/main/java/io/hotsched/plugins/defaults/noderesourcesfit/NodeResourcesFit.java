package io.hotsched.plugins.defaults.noderesourcesfit;

import io.hotsched.api.framework.ClusterEventWithHint;
import io.hotsched.api.framework.Code;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.EnqueueExtensions;
import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.ImmutableStateData;
import io.hotsched.api.framework.InvalidArgsException;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeInfoLister;
import io.hotsched.api.framework.PluginArgs;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PreFilterResult;
import io.hotsched.api.framework.PreScorePlugin;
import io.hotsched.api.framework.Resource;
import io.hotsched.api.framework.ScorePlugin;
import io.hotsched.api.framework.StateKey;
import io.hotsched.api.framework.Status;
import io.hotsched.plugins.defaults.helper.BrokenLinear;
import io.hotsched.plugins.defaults.helper.LabelValidation;
import io.hotsched.plugins.defaults.helper.ResourceAllocation;
import io.hotsched.plugins.defaults.helper.ResourceSpec;
import io.hotsched.plugins.defaults.helper.StatefulFilter;
import io.hotsched.plugins.defaults.helper.UtilizationShape;
import java.util.List;
import java.util.Set;

/**
 * Filter: the node has room for the pod's requests (and one more pod). Score: how the node's
 * resources would be allocated with the pod on it, by the configured scoring strategy.
 */
public final class NodeResourcesFit
        implements StatefulFilter<NodeResourcesFit.PreFilterState>, PreScorePlugin, ScorePlugin, EnqueueExtensions {

    public static final String NAME = "NodeResourcesFit";
    public static final String LEAST_ALLOCATED = "LeastAllocated";
    public static final String MOST_ALLOCATED = "MostAllocated";
    public static final String REQUESTED_TO_CAPACITY_RATIO = "RequestedToCapacityRatio";

    /** NodeResourcesFitArgs (v1). */
    public static final class Args {
        public List<String> ignoredResources;
        public List<String> ignoredResourceGroups;
        public ScoringStrategyArgs scoringStrategy;
    }

    /** ScoringStrategy (v1). */
    public static final class ScoringStrategyArgs {
        public String type;
        public List<ResourceSpec> resources;
        public RequestedToCapacityRatioArgs requestedToCapacityRatio;
    }

    /** RequestedToCapacityRatioParam (v1). */
    public static final class RequestedToCapacityRatioArgs {
        public List<UtilizationShape.Point> shape;
    }

    static NodeResourcesFit create(PluginArgs args, Handle handle) throws InvalidArgsException {
        Args a = args.as(Args.class);
        Set<String> ignored = names(a.ignoredResources, "ignoredResources", false);
        Set<String> groups = names(a.ignoredResourceGroups, "ignoredResourceGroups", true);
        ScoringStrategyArgs s = a.scoringStrategy == null ? new ScoringStrategyArgs() : a.scoringStrategy;
        // v1 defaulting: no strategy is LeastAllocated; a strategy must name its type
        String type = a.scoringStrategy == null ? LEAST_ALLOCATED : String.valueOf(s.type);
        List<ResourceSpec> resources = ResourceSpec.defaulted(s.resources, "scoringStrategy.resources");
        ScoringStrategy strategy = switch (type) {
            case LEAST_ALLOCATED -> ScoringStrategy.LEAST_ALLOCATED;
            case MOST_ALLOCATED -> ScoringStrategy.MOST_ALLOCATED;
            case REQUESTED_TO_CAPACITY_RATIO -> new RequestedToCapacityRatio(shape(s.requestedToCapacityRatio));
            default ->
                throw new InvalidArgsException(
                        "scoringStrategy.type",
                        type,
                        "Unsupported value: one of " + LEAST_ALLOCATED + ", " + MOST_ALLOCATED + ", "
                                + REQUESTED_TO_CAPACITY_RATIO);
        };
        return new NodeResourcesFit(new Fits(ignored, groups), strategy, resources);
    }

    private static Set<String> names(List<String> names, String field, boolean groups) throws InvalidArgsException {
        if (names == null) {
            return Set.of();
        }
        for (int i = 0; i < names.size(); i++) {
            String n = names.get(i);
            String error = n == null ? "must not be empty" : LabelValidation.keyError(n);
            if (groups && error == null && n.contains("/")) {
                error = "resource group name can't contain '/'";
            }
            if (error != null) {
                throw new InvalidArgsException(field + "[" + i + "]", n, error);
            }
        }
        return Set.copyOf(names);
    }

    private static BrokenLinear shape(RequestedToCapacityRatioArgs ratio) throws InvalidArgsException {
        return UtilizationShape.parse(
                ratio == null ? null : ratio.shape, "scoringStrategy.requestedToCapacityRatio.shape");
    }

    /** The pod's requests for filtering, computed once per cycle. */
    record PreFilterState(Resource request) implements ImmutableStateData {}

    /** The pod's requests of the scored resources, computed once per cycle. */
    record PreScoreState(long[] requests) implements ImmutableStateData {}

    static final StateKey<PreFilterState> PRE_FILTER_KEY = StateKey.of("PreFilter" + NAME, PreFilterState.class);
    static final StateKey<PreScoreState> PRE_SCORE_KEY = StateKey.of("PreScore" + NAME, PreScoreState.class);

    private final Fits fits;
    private final ScoringStrategy strategy;
    private final List<ResourceSpec> resources;
    private final long[] weights;

    NodeResourcesFit(Fits fits, ScoringStrategy strategy, List<ResourceSpec> resources) {
        this.fits = fits;
        this.strategy = strategy;
        this.resources = resources;
        this.weights = resources.stream().mapToLong(ResourceSpec::weight).toArray();
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public StateKey<PreFilterState> preFilterKey() {
        return PRE_FILTER_KEY;
    }

    @Override
    public PreFilterResult preFilter(CycleState state, PodInfo pod, NodeInfoLister nodes) {
        state.write(PRE_FILTER_KEY, new PreFilterState(pod.requests()));
        return PreFilterResult.ALL_NODES;
    }

    @Override
    public Status filter(PreFilterState s, PodInfo pod, NodeInfo node) {
        List<InsufficientResource> missing = fits.check(s.request(), node);
        if (missing.isEmpty()) {
            return Status.SUCCESS;
        }
        String[] reasons = new String[missing.size()];
        boolean unresolvable = false;
        for (int i = 0; i < reasons.length; i++) {
            reasons[i] = missing.get(i).reason();
            unresolvable |= missing.get(i).unresolvable();
        }
        return Status.of(unresolvable ? Code.UNSCHEDULABLE_AND_UNRESOLVABLE : Code.UNSCHEDULABLE, reasons);
    }

    /** What the pod lacks on {@code node}, as Filter sees it; for explanations and tests. */
    public List<InsufficientResource> insufficientResources(PodInfo pod, NodeInfo node) {
        return fits.check(pod.requests(), node);
    }

    @Override
    public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
        state.write(PRE_SCORE_KEY, new PreScoreState(ResourceAllocation.podRequests(pod, resources, false)));
        return Status.SUCCESS;
    }

    @Override
    public long score(CycleState state, PodInfo pod, NodeInfo node) {
        PreScoreState pre = state.readOrNull(PRE_SCORE_KEY);
        long[] podRequests = pre != null ? pre.requests() : ResourceAllocation.podRequests(pod, resources, false);
        long weightedSum = 0;
        long weightSum = 0;
        for (int i = 0; i < podRequests.length; i++) {
            String name = resources.get(i).name();
            long allocatable = ResourceAllocation.allocatable(node, name, podRequests[i]);
            if (allocatable == 0) {
                continue;
            }
            long s = strategy.resourceScore(
                    ResourceAllocation.requested(node, name, podRequests[i], false), allocatable);
            if (s != ScoringStrategy.LEFT_OUT) {
                weightedSum += s * weights[i];
                weightSum += weights[i];
            }
        }
        return strategy.combine(weightedSum, weightSum);
    }

    @Override
    public List<ClusterEventWithHint> eventsToRegister() {
        return ResourceAllocation.EVENTS;
    }
}
