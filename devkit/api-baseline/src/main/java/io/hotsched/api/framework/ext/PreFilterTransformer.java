package io.hotsched.api.framework.ext;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PreFilterResult;
import io.hotsched.api.framework.Status;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Runs around the PreFilter phase, on the scheduling thread, when enabled at PreFilter. A failure
 * of either method ends the attempt with that status, marked with the transformer's name.
 */
@ConsumerType
public interface PreFilterTransformer extends SchedulingTransformer {

    /** Before every PreFilter plugin; a replaced pod is what all later steps of the attempt see. */
    Transformation beforePreFilter(CycleState state, PodInfo pod);

    /** After every PreFilter plugin succeeded, with the intersected result. */
    Status afterPreFilter(CycleState state, PodInfo pod, PreFilterResult result);
}
