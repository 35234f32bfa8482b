package io.hotsched.itest.plugins;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.Handle;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PluginArgs;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.ScorePlugin;
import io.hotsched.api.framework.Status;
import org.osgi.service.component.annotations.Component;

/** Rejects nodes without free cpu; prefers the emptiest. */
@Component(property = PluginFactory.NAME_PROPERTY + "=" + ItestFit.NAME)
public final class ItestFit implements PluginFactory {

    public static final String NAME = "ItestFit";

    @Override
    public Plugin create(PluginArgs args, Handle handle) {
        return new Fit();
    }

    static final class Fit implements FilterPlugin, ScorePlugin {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
            return pod.requests().milliCpu()
                            > node.allocatable().milliCpu() - node.requested().milliCpu()
                    ? Status.unschedulable("Insufficient cpu")
                    : Status.SUCCESS;
        }

        @Override
        public long score(CycleState state, PodInfo pod, NodeInfo node) {
            long alloc = node.allocatable().milliCpu();
            long used =
                    node.nonZeroRequested().milliCpu() + pod.nonZeroRequests().milliCpu();
            return alloc == 0 || used > alloc ? 0 : (alloc - used) * 100 / alloc;
        }
    }
}
