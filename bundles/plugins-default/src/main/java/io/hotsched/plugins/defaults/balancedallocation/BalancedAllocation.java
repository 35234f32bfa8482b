package io.hotsched.plugins.defaults.balancedallocation;

import io.hotsched.api.framework.ClusterEventWithHint;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.EnqueueExtensions;
import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.ImmutableStateData;
import io.hotsched.api.framework.InvalidArgsException;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PluginArgs;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PreScorePlugin;
import io.hotsched.api.framework.ScorePlugin;
import io.hotsched.api.framework.StateKey;
import io.hotsched.api.framework.Status;
import io.hotsched.plugins.defaults.helper.ResourceAllocation;
import io.hotsched.plugins.defaults.helper.ResourceSpec;
import java.util.List;

/**
 * Score: nodes whose resources would be used in even shares with the pod on them score higher
 * ({@code (1 - standard deviation of the used fractions) * 100}), counting actual requests.
 */
public final class BalancedAllocation implements PreScorePlugin, ScorePlugin, EnqueueExtensions {

    public static final String NAME = "NodeResourcesBalancedAllocation";

    /** NodeResourcesBalancedAllocationArgs (v1); the weights are validated but not used. */
    public static final class Args {
        public List<ResourceSpec> resources;
    }

    static BalancedAllocation create(PluginArgs args, Handle handle) throws InvalidArgsException {
        return new BalancedAllocation(ResourceSpec.defaulted(args.as(Args.class).resources, "resources"));
    }

    /** The pod's actual requests of the scored resources, computed once per cycle. */
    record PreScoreState(long[] requests) implements ImmutableStateData {}

    static final StateKey<PreScoreState> KEY = StateKey.of("PreScore" + NAME, PreScoreState.class);

    private final List<ResourceSpec> resources;

    BalancedAllocation(List<ResourceSpec> resources) {
        this.resources = resources;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
        long[] requests = ResourceAllocation.podRequests(pod, resources, true);
        if (bestEffort(requests)) {
            return Status.SKIP;
        }
        state.write(KEY, new PreScoreState(requests));
        return Status.SUCCESS;
    }

    @Override
    public long score(CycleState state, PodInfo pod, NodeInfo node) {
        long[] requests = state.read(KEY)
                .map(PreScoreState::requests)
                .orElseGet(() -> ResourceAllocation.podRequests(pod, resources, true));
        if (bestEffort(requests)) {
            return 0;
        }
        int n = 0;
        double total = 0;
        double first = 0;
        double second = 0;
        for (int i = 0; i < requests.length; i++) {
            double f = fraction(node, i, requests[i]);
            if (f < 0) {
                continue;
            }
            if (n == 0) {
                first = f;
            } else if (n == 1) {
                second = f;
            }
            n++;
            total += f;
        }
        double std = 0;
        if (n == 2) {
            std = Math.abs((first - second) / 2);
        } else if (n > 2) {
            // a second pass, as upstream sums squared deviations from the mean (same rounding)
            double mean = total / n;
            double sum = 0;
            for (int i = 0; i < requests.length; i++) {
                double f = fraction(node, i, requests[i]);
                if (f >= 0) {
                    sum += (f - mean) * (f - mean);
                }
            }
            std = Math.sqrt(sum / n);
        }
        return (long) ((1 - std) * 100);
    }

    /** The used share of resource {@code i}, at most 1; -1 when the resource is not scored. */
    private double fraction(NodeInfo node, int i, long podRequest) {
        String name = resources.get(i).name();
        long alloc = ResourceAllocation.allocatable(node, name, podRequest);
        if (alloc == 0) {
            return -1;
        }
        return Math.min(1.0, (double) ResourceAllocation.requested(node, name, podRequest, true) / alloc);
    }

    private static boolean bestEffort(long[] requests) {
        for (long r : requests) {
            if (r != 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    public List<ClusterEventWithHint> eventsToRegister() {
        return ResourceAllocation.EVENTS;
    }
}
