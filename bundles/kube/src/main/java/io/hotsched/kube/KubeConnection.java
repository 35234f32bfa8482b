package io.hotsched.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.hotsched.api.cluster.ClusterEvents;
import io.hotsched.api.framework.ObjectKind;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Informers on nodes, all pods, and the kinds plugins follow (PodDisruptionBudgets,
 * PriorityClasses, Namespaces, Koordinator's NodeMetric and Device, and the kinds plugins read
 * through listers, {@link ObjectKind#LISTED}: PersistentVolumes, claims, StorageClasses, the CSI
 * kinds), feeding the scheduler's {@link ClusterEvents}; the scheduler is told it is synced once
 * nodes, pods and the listed kinds have been listed, so that no volume plugin finds a claim
 * missing only because its informer had not caught up.
 * The fabric8 informers relist after watch errors on their own. A custom resource the cluster does
 * not serve is reported once and skipped.
 */
public final class KubeConnection implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(KubeConnection.class);
    private static final long RESYNC_MILLIS = 0;

    private final KubernetesClient client;
    private final ClusterEvents events;
    private final List<SharedIndexInformer<?>> informers = new ArrayList<>();
    private volatile boolean synced;

    public KubeConnection(KubernetesClient client, ClusterEvents events) {
        this.client = client;
        this.events = events;
    }

    /** Starts the informers; returns at once. {@link #awaitSynced} waits for the first listing. */
    public void start() {
        warmUpDeserializer();
        SharedIndexInformer<Node> nodes = client.nodes()
                .inform(
                        new InformerHandler<>("Node", events::nodeAdded, events::nodeUpdated, events::nodeDeleted),
                        RESYNC_MILLIS);
        informers.add(nodes);
        SharedIndexInformer<Pod> pods = client.pods()
                .inAnyNamespace()
                .inform(
                        new InformerHandler<>("Pod", events::podAdded, events::podUpdated, events::podDeleted),
                        RESYNC_MILLIS);
        informers.add(pods);
        follow(
                "PodDisruptionBudget",
                () -> client.policy()
                        .v1()
                        .podDisruptionBudget()
                        .inAnyNamespace()
                        .inform(handler("PodDisruptionBudget"), RESYNC_MILLIS));
        follow(
                "PriorityClass",
                () -> client.scheduling().v1().priorityClasses().inform(handler("PriorityClass"), RESYNC_MILLIS));
        follow("Namespace", () -> client.namespaces().inform(handler("Namespace"), RESYNC_MILLIS));
        // what selects a pod, for PodTopologySpread's default constraints
        follow("Service", () -> client.services().inAnyNamespace().inform(handler("Service"), RESYNC_MILLIS));
        follow(
                "ReplicationController",
                () -> client.replicationControllers()
                        .inAnyNamespace()
                        .inform(handler("ReplicationController"), RESYNC_MILLIS));
        follow(
                "ReplicaSet",
                () -> client.apps().replicaSets().inAnyNamespace().inform(handler("ReplicaSet"), RESYNC_MILLIS));
        follow(
                "StatefulSet",
                () -> client.apps().statefulSets().inAnyNamespace().inform(handler("StatefulSet"), RESYNC_MILLIS));
        List<SharedIndexInformer<?>> listed = new ArrayList<>();
        for (ObjectKind<?> kind : ObjectKind.LISTED) {
            follow(kind.name(), () -> {
                SharedIndexInformer<?> i = inform(kind);
                listed.add(i);
                return i;
            });
        }
        followCustom("slo.koordinator.sh/v1alpha1", "NodeMetric");
        followCustom("scheduling.koordinator.sh/v1alpha1", "Device");
        Thread waiter = new Thread(
                () -> {
                    while (!(nodes.hasSynced()
                            && pods.hasSynced()
                            && listed.stream().allMatch(SharedIndexInformer::hasSynced))) {
                        try {
                            Thread.sleep(20);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                    synced = true;
                    LOG.info(
                            "Cluster synced: {} node(s), {} pod(s)",
                            nodes.getStore().list().size(),
                            pods.getStore().list().size());
                    events.synced();
                },
                "hotsched-kube-sync");
        waiter.setDaemon(true);
        waiter.start();
    }

    /**
     * Builds the client's polymorphic deserializer (fabric8's KubernetesDeserializer, which
     * ResourceClaims need for their opaque parameters) once, with the model bundle's class loader
     * as the context class loader: built lazily on an informer's pool thread it would look up the
     * model classes through that thread's loader and, inside OSGi, find other copies of them
     * ({@code APIGroup not a subtype}). The client keeps the one built here.
     */
    private void warmUpDeserializer() {
        Thread t = Thread.currentThread();
        ClassLoader before = t.getContextClassLoader();
        t.setContextClassLoader(KubernetesResource.class.getClassLoader());
        try {
            client.getKubernetesSerialization()
                    .unmarshal(
                            "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\",\"metadata\":{\"name\":\"warm-up\"}}",
                            ResourceClaim.class);
        } finally {
            t.setContextClassLoader(before);
        }
    }

    /** One informer for a listed kind, in every namespace when it is namespaced. */
    private <T extends HasMetadata> SharedIndexInformer<T> inform(ObjectKind<T> kind) {
        var resources = client.resources(kind.type());
        return kind.namespaced()
                ? resources.inAnyNamespace().inform(handler(kind.name()), RESYNC_MILLIS)
                : resources.inform(handler(kind.name()), RESYNC_MILLIS);
    }

    private <T extends HasMetadata> ResourceEventHandler<T> handler(String kind) {
        return new InformerHandler<T>(
                kind,
                o -> events.objectChanged(kind, null, o),
                (o, n) -> events.objectChanged(kind, o, n),
                o -> events.objectChanged(kind, o, null));
    }

    private void follow(String kind, Supplier<SharedIndexInformer<?>> start) {
        try {
            informers.add(start.get());
        } catch (KubernetesClientException e) {
            LOG.warn("Not following {}: {}", kind, e.getMessage());
        }
    }

    private void followCustom(String apiVersion, String kind) {
        try {
            client.genericKubernetesResources(apiVersion, kind).list();
        } catch (KubernetesClientException e) {
            LOG.warn(
                    "The cluster does not serve {} ({}); plugins that read it will see none. ({})",
                    kind,
                    apiVersion,
                    e.getCode() == 404 ? "no CRD installed: see configs/crds/" : e.getMessage());
            return;
        }
        informers.add(client.genericKubernetesResources(apiVersion, kind)
                .inform(this.<GenericKubernetesResource>handler(kind), RESYNC_MILLIS));
    }

    public boolean synced() {
        return synced;
    }

    /** Waits until nodes and pods were listed; false on time-out. */
    public boolean awaitSynced(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (!synced && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        return synced;
    }

    /** The pods the informer holds (for reports). */
    @SuppressWarnings("unchecked")
    public List<Pod> pods() {
        return ((SharedIndexInformer<Pod>) informers.get(1)).getStore().list();
    }

    @Override
    public void close() {
        for (SharedIndexInformer<?> i : informers) {
            try {
                i.close();
            } catch (RuntimeException e) {
                // closing anyway
            }
        }
        informers.clear();
    }
}
