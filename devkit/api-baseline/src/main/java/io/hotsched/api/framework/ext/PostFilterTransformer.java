package io.hotsched.api.framework.ext;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.NodeToStatus;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PostFilterResult;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Informed after the PostFilter phase of a failed attempt, when enabled at PostFilter, whatever
 * PostFilter returned. Exceptions are logged and ignored.
 */
@ConsumerType
public interface PostFilterTransformer extends SchedulingTransformer {

    void afterPostFilter(CycleState state, PodInfo pod, NodeToStatus statuses, PostFilterResult result);
}
