package io.hotsched.api.framework;

import java.util.List;
import org.osgi.annotation.versioning.ProviderType;

/**
 * What the framework gives a plugin instance: the snapshot, cluster operations, waiting pods,
 * worker threads, and the plugin runners preemption needs. One handle per profile; valid for the
 * life of the plugin instance.
 */
@ProviderType
public interface Handle {

    /** The name of the profile ({@code schedulerName}) the plugin serves. */
    String profileName();

    /**
     * The snapshot of the attempt running on the calling thread; outside an attempt, the latest
     * snapshot.
     */
    NodeInfoLister snapshot();

    ClusterClient cluster();

    /** Pods of this profile held in Permit. */
    WaitingPods waitingPods();

    Parallelizer parallelizer();

    /**
     * Runs the profile's Filter plugins for the pod on the node, counting pods nominated to the
     * node with a priority not below the pod's, as the framework does (preemption's dry run).
     */
    Status runFilterPluginsWithNominatedPods(CycleState state, PodInfo pod, NodeInfo node);

    /** Runs every PreFilter plugin's {@link PreFilterExtensions#addPod}, skipping plugins that skipped. */
    Status runPreFilterExtensionAddPod(CycleState state, PodInfo podToSchedule, PodInfo podToAdd, NodeInfo node);

    /** Runs every PreFilter plugin's {@link PreFilterExtensions#removePod}, skipping plugins that skipped. */
    Status runPreFilterExtensionRemovePod(CycleState state, PodInfo podToSchedule, PodInfo podToRemove, NodeInfo node);

    /** Pods nominated to {@code nodeName} (by preemption) that are not bound yet. */
    List<PodInfo> nominatedPodsForNode(String nodeName);
}
