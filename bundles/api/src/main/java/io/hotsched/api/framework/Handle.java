package io.hotsched.api.framework;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
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

    /**
     * The labels of namespace {@code namespace}, as the cluster connection last reported it; empty
     * when the namespace is unknown. Pod affinity terms' {@code namespaceSelector}s match these.
     */
    Map<String, String> namespaceLabels(String namespace);

    /**
     * The objects of {@code kind} ({@code Service}, {@code ReplicaSet}, {@code StatefulSet},
     * {@code ReplicationController}, {@code Namespace}, and the other kinds the cluster connection
     * follows), as last reported, in no particular order; empty for a kind it does not follow.
     * The objects are shared: do not change them.
     */
    List<HasMetadata> objects(String kind);

    /**
     * The object of {@code kind} named {@code name} (in {@code namespace}; null for cluster-scoped
     * kinds such as NodeMetric), as last reported, or null. Shared: do not change it.
     *
     * @since 1.3
     */
    HasMetadata object(String kind, String namespace, String name);

    /**
     * The clock plugins read the time from (metric expiry, estimation windows), so tests can fix it.
     *
     * @since 1.3
     */
    Clock clock();

    /**
     * The listers of PersistentVolumes, PersistentVolumeClaims, StorageClasses and the CSI kinds,
     * fed by the cluster connection as it is by pods and nodes.
     *
     * @since 1.7
     */
    Listers listers();

    /**
     * What the instances of each plugin reserved for the pods assumed now, shared by every
     * instance of a plugin (other versions, other profiles); see {@link Reservations}.
     *
     * @since 1.8
     */
    Reservations reservations();

    /**
     * The configuration's extenders, in the order upstream calls them (those that are not
     * ignorable first); empty when none are configured.
     *
     * @since 1.4
     */
    default List<Extender> extenders() {
        return List.of();
    }

    /**
     * Whether kube-scheduler's feature gate {@code gate} (such as {@code SchedulerAsyncPreemption})
     * is on in this scheduler now; false for a gate it does not know. Gates can change while the
     * plugin runs: read it where the behaviour is decided, not once.
     *
     * @since 1.9
     */
    default boolean featureEnabled(String gate) {
        return false;
    }

    /**
     * Moves the pod, if it waits in the scheduling queue (unschedulable, backing off, or kept out
     * by a PreEnqueue plugin), to the active queue through the PreEnqueue plugins again, as
     * upstream's {@code Handle.Activate}; a pod in its scheduling attempt is moved when the attempt
     * fails. Nothing for a pod the queue does not hold.
     *
     * @since 1.9
     */
    default void activate(PodInfo pod) {}

    /**
     * Runs work that outlives the scheduling cycle (the API calls of asynchronous preemption) on
     * the scheduler's threads: plugins own no threads. Tasks run in no particular order, a few at a
     * time; one that throws is logged and the others go on. A task must end on its own (API calls
     * have time-outs): nothing interrupts it when its bundle stops.
     *
     * @since 1.9
     */
    default Executor background() {
        return Runnable::run;
    }
}
