package io.hotsched.embedded.standins;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A small garbage collector: when a workload object is deleted, the objects it owns (by
 * {@code metadata.ownerReferences}) and that have no other owner are deleted too, which deletes what
 * they own in turn: a Deployment's ReplicaSets, then their pods. This is background propagation,
 * whatever the delete request's {@code propagationPolicy} said (orphaning is not played). Only the
 * owner and dependent kinds in {@link #DEPENDENTS} are looked at.
 */
final class GarbageCollector implements AutoCloseable {

    /** For each owner kind, the kinds its controller creates. */
    static final Map<Class<? extends HasMetadata>, List<Class<? extends HasMetadata>>> DEPENDENTS = Map.of(
            Deployment.class, List.of(ReplicaSet.class),
            ReplicaSet.class, List.of(Pod.class),
            Job.class, List.of(Pod.class),
            DaemonSet.class, List.of(Pod.class),
            StatefulSet.class, List.of(Pod.class, PersistentVolumeClaim.class));

    private final KubernetesClient client;
    private final List<SharedIndexInformer<?>> informers = new ArrayList<>();
    private final WorkQueue queue;
    private final java.util.concurrent.ConcurrentHashMap<String, HasMetadata> deleted =
            new java.util.concurrent.ConcurrentHashMap<>();

    GarbageCollector(KubernetesClient client) {
        this.client = client;
        this.queue = new WorkQueue("garbage-collector", this::collect);
    }

    void start() {
        DEPENDENTS.keySet().forEach(this::watch);
    }

    private <T extends HasMetadata> void watch(Class<T> kind) {
        informers.add(client.resources(kind).inAnyNamespace().inform(new ResourceEventHandler<T>() {
            @Override
            public void onAdd(T o) {}

            @Override
            public void onUpdate(T old, T o) {}

            @Override
            public void onDelete(T o, boolean unknownFinalState) {
                deleted.put(o.getMetadata().getUid(), o);
                queue.add(o.getMetadata().getUid());
            }
        }));
    }

    private void collect(String uid) {
        HasMetadata owner = deleted.get(uid);
        if (owner == null) {
            return;
        }
        for (Class<? extends HasMetadata> kind : DEPENDENTS.get(owner.getClass())) {
            for (HasMetadata d : client.resources(kind)
                    .inNamespace(owner.getMetadata().getNamespace())
                    .list()
                    .getItems()) {
                if (ownedOnlyBy(d, uid)) {
                    try {
                        client.resource(d).delete();
                    } catch (KubernetesClientException e) {
                        if (e.getCode() != 404) {
                            throw e;
                        }
                    }
                }
            }
        }
        deleted.remove(uid);
    }

    private static boolean ownedOnlyBy(HasMetadata d, String uid) {
        List<OwnerReference> refs = d.getMetadata().getOwnerReferences();
        return refs != null && !refs.isEmpty() && refs.stream().allMatch(r -> uid.equals(r.getUid()));
    }

    @Override
    public void close() {
        queue.close();
        informers.forEach(SharedIndexInformer::stop);
    }
}
