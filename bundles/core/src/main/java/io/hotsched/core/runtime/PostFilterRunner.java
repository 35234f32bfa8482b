package io.hotsched.core.runtime;

import io.hotsched.api.framework.Code;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.NodeToStatus;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PostFilterPlugin;
import io.hotsched.api.framework.PostFilterResult;
import io.hotsched.api.framework.Status;
import io.hotsched.api.framework.ext.PostFilterTransformer;
import io.hotsched.core.runtime.GuardedCall.Outcome;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PostFilter as upstream runs it: the plugins in order until one makes the pod schedulable (a
 * nomination) or unresolvable; the rejections of the others add up. Koordinator's
 * PostFilterTransformers see the result last; their failure is a fault, not the pod's.
 */
record PostFilterRunner(PluginSlots slots, PluginCalls calls) {

    private static final Logger LOG = LoggerFactory.getLogger(PostFilterRunner.class);

    PostFilterResult run(CycleState state, PodInfo pod, NodeToStatus statuses) {
        PostFilterResult result = PostFilterResult.of(Status.unschedulable());
        List<String> reasons = new ArrayList<>();
        String rejector = null;
        String nominating = null;
        for (Slot<PostFilterPlugin> s : slots.postFilter) {
            Outcome<PostFilterResult> o = calls.postFilter(state, s, pod, statuses);
            if (o.failed()) {
                result = PostFilterResult.of(o.failure());
                break;
            }
            PostFilterResult r = o.value();
            Status st = r == null ? Status.unschedulable() : r.status();
            if (st.isSuccess() || st.code() == Code.UNSCHEDULABLE_AND_UNRESOLVABLE) {
                result = new PostFilterResult(st.withPlugin(s.name()), r == null ? null : r.nominatedNodeName());
                break;
            }
            if (st.code() == Code.ERROR) {
                result = PostFilterResult.of(st.withPlugin(s.name()));
                break;
            }
            reasons.addAll(st.reasons());
            if (rejector == null) {
                rejector = s.name();
            }
            // a rejection may still carry a nomination ("" clears the pod's old one): the last one counts
            if (r != null && r.nominatedNodeName() != null) {
                nominating = r.nominatedNodeName();
            }
            result = new PostFilterResult(
                    Status.unschedulable(reasons.toArray(String[]::new)).withPlugin(rejector), nominating);
        }
        for (Slot<PostFilterTransformer> t : slots.postFilterTransformers) {
            Outcome<Boolean> o = calls.afterPostFilter(state, t, pod, statuses, result);
            if (o.failed()) {
                LOG.warn("{}; the pod's PostFilter result stands", o.failure().message());
            }
        }
        return result;
    }
}
