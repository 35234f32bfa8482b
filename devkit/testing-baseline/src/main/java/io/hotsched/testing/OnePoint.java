package io.hotsched.testing;

import io.hotsched.api.framework.BindPlugin;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeToStatus;
import io.hotsched.api.framework.PermitPlugin;
import io.hotsched.api.framework.PermitResult;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PostFilterPlugin;
import io.hotsched.api.framework.PostFilterResult;
import io.hotsched.api.framework.PreBindPlugin;
import io.hotsched.api.framework.ScorePlugin;
import io.hotsched.api.framework.Status;

/**
 * Plugins of one extension point, made of a name and a lambda: for a test that needs a plugin
 * doing one thing, {@code new OnePoint.Filter("OnlyN1", (s, pod, node) -> ...)}, so that the
 * test reads what the plugin does next to what it checks.
 */
public final class OnePoint {

    private OnePoint() {}

    /** What a per-node plugin (Filter, Score) does with one node. */
    public interface OnNode<R> {
        R call(CycleState state, PodInfo pod, NodeInfo node);
    }

    /** What a binding-cycle plugin (Permit, PreBind, Bind) does with the node chosen. */
    public interface OnChosenNode<R> {
        R call(CycleState state, PodInfo pod, String nodeName);
    }

    public record Filter(String name, OnNode<Status> call) implements FilterPlugin {
        @Override
        public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
            return call.call(state, pod, node);
        }
    }

    public record Score(String name, OnNode<Long> call) implements ScorePlugin {
        @Override
        public long score(CycleState state, PodInfo pod, NodeInfo node) {
            return call.call(state, pod, node);
        }
    }

    public record PostFilter(String name, Call call) implements PostFilterPlugin {
        public interface Call {
            PostFilterResult postFilter(CycleState state, PodInfo pod, NodeToStatus statuses);
        }

        @Override
        public PostFilterResult postFilter(CycleState state, PodInfo pod, NodeToStatus statuses) {
            return call.postFilter(state, pod, statuses);
        }
    }

    public record Permit(String name, OnChosenNode<PermitResult> call) implements PermitPlugin {
        @Override
        public PermitResult permit(CycleState state, PodInfo pod, String nodeName) {
            return call.call(state, pod, nodeName);
        }
    }

    public record PreBind(String name, OnChosenNode<Status> call) implements PreBindPlugin {
        @Override
        public Status preBind(CycleState state, PodInfo pod, String nodeName) {
            return call.call(state, pod, nodeName);
        }
    }

    public record Bind(String name, OnChosenNode<Status> call) implements BindPlugin {
        @Override
        public Status bind(CycleState state, PodInfo pod, String nodeName) {
            return call.call(state, pod, nodeName);
        }
    }
}
