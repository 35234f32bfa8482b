package io.hotsched.api.framework;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Runs once per scheduling attempt, before Filter, on the scheduling thread: checks the pod and
 * computes in the {@link CycleState} what Filter will need, so that Filter does no per-pod work
 * per node.
 *
 * <p>Return codes: Success; {@link Code#SKIP} (this plugin's Filter and extensions will not run
 * for the pod); {@link Code#UNSCHEDULABLE} (remembered, the other PreFilter plugins still run,
 * then the attempt fails); {@link Code#UNSCHEDULABLE_AND_UNRESOLVABLE} (the attempt fails at
 * once); anything else is an error. The message of a rejection becomes the attempt's
 * "0/N nodes are available: &lt;message&gt;." text.
 */
@ConsumerType
public interface PreFilterPlugin extends Plugin {

    /**
     * @param nodes the snapshot's nodes
     * @return the status, and optionally the only nodes worth filtering; never null
     */
    PreFilterResult preFilter(CycleState state, PodInfo pod, NodeInfoLister nodes);

    /** The incremental update used by preemption, or null when the plugin has none. */
    default PreFilterExtensions preFilterExtensions() {
        return null;
    }
}
