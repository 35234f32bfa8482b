package io.hotsched.api.framework.ext;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import java.util.List;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Runs once after PreScore and before the Score plugins, on the scheduling thread, when enabled
 * at Score (Koordinator's order). A replaced node list must hold the same nodes in the same order;
 * the Score plugins see the replacements.
 */
@ConsumerType
public interface ScoreTransformer extends SchedulingTransformer {

    Transformation beforeScore(CycleState state, PodInfo pod, List<NodeInfo> nodes);
}
