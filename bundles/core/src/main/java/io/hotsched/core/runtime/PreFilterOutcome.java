package io.hotsched.core.runtime;

import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PreFilterResult;
import io.hotsched.api.framework.Status;
import java.util.Set;

/**
 * The PreFilter phase's outcome.
 *
 * @param pod the pod the rest of the attempt sees (a transformer may have replaced it)
 * @param result the intersected node restriction (all nodes when none)
 * @param status success, or why the attempt stops here
 * @param plugins the plugins that restricted the nodes, sorted (for the absent-node message)
 */
public record PreFilterOutcome(PodInfo pod, PreFilterResult result, Status status, Set<String> plugins) {}
