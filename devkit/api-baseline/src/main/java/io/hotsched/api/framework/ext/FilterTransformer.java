package io.hotsched.api.framework.ext;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Runs before the Filter plugins for each node, on the worker threads, when enabled at Filter.
 * A replaced pod or node is what the Filter plugins see for that node only. Per-node code: keep
 * {@link Transformation#UNCHANGED} the common, allocation-free answer.
 */
@ConsumerType
public interface FilterTransformer extends SchedulingTransformer {

    Transformation beforeFilter(CycleState state, PodInfo pod, NodeInfo node);
}
