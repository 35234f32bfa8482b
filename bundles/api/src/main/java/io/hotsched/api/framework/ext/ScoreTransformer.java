package io.hotsched.api.framework.ext;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import java.util.List;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Runs once before the PreScore and Score plugins, on the scheduling thread, when enabled at
 * Score. A replaced node list must hold the same nodes in the same order.
 */
@ConsumerType
public interface ScoreTransformer extends SchedulingTransformer {

    Transformation beforeScore(CycleState state, PodInfo pod, List<NodeInfo> nodes);
}
