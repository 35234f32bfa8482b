package io.hotsched.core.hostile;

import io.hotsched.api.framework.BindPlugin;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeInfoLister;
import io.hotsched.api.framework.NodeScores;
import io.hotsched.api.framework.NodeToStatus;
import io.hotsched.api.framework.PermitResult;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PostFilterResult;
import io.hotsched.api.framework.PreEnqueuePlugin;
import io.hotsched.api.framework.PreFilterExtensions;
import io.hotsched.api.framework.PreFilterResult;
import io.hotsched.api.framework.ScoreExtensions;
import io.hotsched.api.framework.Status;
import io.hotsched.api.framework.ext.Transformation;
import io.hotsched.core.support.AllPoints;
import java.util.List;

/**
 * A plugin on every point that behaves at one point ({@link #at}) as {@link #mode} says (throws,
 * or returns null) and well everywhere else. Unreserve is only called after a later point failed:
 * when it is the hostile point, Permit rejects the pod to get there.
 */
final class Hostile implements AllPoints, PreEnqueuePlugin, BindPlugin {

    enum Point {
        PRE_ENQUEUE,
        BEFORE_PRE_FILTER,
        PRE_FILTER,
        AFTER_PRE_FILTER,
        BEFORE_FILTER,
        FILTER,
        POST_FILTER,
        AFTER_POST_FILTER,
        PRE_SCORE,
        BEFORE_SCORE,
        SCORE,
        NORMALIZE_SCORE,
        RESERVE,
        UNRESERVE,
        PERMIT,
        PRE_BIND,
        BIND,
        POST_BIND
    }

    enum Mode {
        THROW,
        NULL
    }

    static final String NAME = "Hostile";

    private final Point at;
    private final Mode mode;

    Hostile(Point at, Mode mode) {
        this.at = at;
        this.mode = mode;
    }

    /** {@code normal} everywhere but at the hostile point, where it throws or returns null. */
    private <T> T act(Point p, T normal) {
        if (p != at) {
            return normal;
        }
        if (mode == Mode.THROW) {
            throw new IllegalStateException("hostile at " + p);
        }
        return null;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Status preEnqueue(PodInfo pod) {
        return act(Point.PRE_ENQUEUE, Status.SUCCESS);
    }

    @Override
    public Transformation beforePreFilter(CycleState state, PodInfo pod) {
        return act(Point.BEFORE_PRE_FILTER, Transformation.UNCHANGED);
    }

    @Override
    public PreFilterResult preFilter(CycleState state, PodInfo pod, NodeInfoLister nodes) {
        return act(Point.PRE_FILTER, PreFilterResult.ALL_NODES);
    }

    @Override
    public Status afterPreFilter(CycleState state, PodInfo pod, PreFilterResult result) {
        return act(Point.AFTER_PRE_FILTER, Status.SUCCESS);
    }

    @Override
    public PreFilterExtensions preFilterExtensions() {
        return this;
    }

    @Override
    public Status addPod(CycleState state, PodInfo podToSchedule, PodInfo podToAdd, NodeInfo node) {
        return Status.SUCCESS;
    }

    @Override
    public Status removePod(CycleState state, PodInfo podToSchedule, PodInfo podToRemove, NodeInfo node) {
        return Status.SUCCESS;
    }

    @Override
    public Transformation beforeFilter(CycleState state, PodInfo pod, NodeInfo node) {
        return act(Point.BEFORE_FILTER, Transformation.UNCHANGED);
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
        return act(Point.FILTER, Status.SUCCESS);
    }

    @Override
    public PostFilterResult postFilter(CycleState state, PodInfo pod, NodeToStatus statuses) {
        return act(Point.POST_FILTER, PostFilterResult.of(Status.unschedulable()));
    }

    @Override
    public void afterPostFilter(CycleState state, PodInfo pod, NodeToStatus statuses, PostFilterResult result) {
        act(Point.AFTER_POST_FILTER, null);
    }

    @Override
    public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> feasibleNodes) {
        return act(Point.PRE_SCORE, Status.SUCCESS);
    }

    @Override
    public Transformation beforeScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
        return act(Point.BEFORE_SCORE, Transformation.UNCHANGED);
    }

    @Override
    public long score(CycleState state, PodInfo pod, NodeInfo node) {
        act(Point.SCORE, null);
        return 0;
    }

    @Override
    public ScoreExtensions scoreExtensions() {
        return this;
    }

    @Override
    public Status normalizeScore(CycleState state, PodInfo pod, NodeScores scores) {
        return act(Point.NORMALIZE_SCORE, Status.SUCCESS);
    }

    @Override
    public Status reserve(CycleState state, PodInfo pod, String nodeName) {
        return act(Point.RESERVE, Status.SUCCESS);
    }

    @Override
    public void unreserve(CycleState state, PodInfo pod, String nodeName) {
        act(Point.UNRESERVE, null);
    }

    @Override
    public PermitResult permit(CycleState state, PodInfo pod, String nodeName) {
        if (at == Point.UNRESERVE) {
            return PermitResult.reject(Status.unschedulable("held back to reach Unreserve"));
        }
        return act(Point.PERMIT, PermitResult.ALLOW);
    }

    @Override
    public Status preBind(CycleState state, PodInfo pod, String nodeName) {
        return act(Point.PRE_BIND, Status.SUCCESS);
    }

    @Override
    public Status bind(CycleState state, PodInfo pod, String nodeName) {
        return act(Point.BIND, Status.SKIP);
    }

    @Override
    public void postBind(CycleState state, PodInfo pod, String nodeName) {
        act(Point.POST_BIND, null);
    }
}
