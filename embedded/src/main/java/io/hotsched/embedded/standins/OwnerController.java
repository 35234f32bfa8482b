package io.hotsched.embedded.standins;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;

/**
 * What every workload stand-in shares: an informer of the owners it controls ({@code T}), the
 * shared informer of what they own ({@code D}: pods, or a Deployment's ReplicaSets), a work queue
 * of owner keys, and expectations of its own writes. The informer of dependents runs only while
 * this controller has owners.
 */
abstract class OwnerController<T extends HasMetadata, D extends HasMetadata> implements AutoCloseable {

    protected final KubernetesClient client;
    protected final LazyInformer<D> dependents;
    protected final Expectations expectations = new Expectations();
    private final Class<T> type;
    private final String kind;
    private final WorkQueue queue;
    private volatile SharedIndexInformer<T> owners;

    OwnerController(KubernetesClient client, Class<T> type, String kind, LazyInformer<D> dependents) {
        this.client = client;
        this.type = type;
        this.kind = kind;
        this.dependents = dependents;
        this.queue = new WorkQueue(kind.toLowerCase(java.util.Locale.ROOT) + "-controller", this::reconcile);
    }

    final void start() {
        dependents.addHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(D d) {
                OwnerReference ref = ownRef(d);
                if (ref != null) {
                    expectations.created(ref.getUid());
                    queue.add(d.getMetadata().getNamespace() + "/" + ref.getName());
                }
            }

            @Override
            public void onUpdate(D old, D d) {
                OwnerReference ref = ownRef(d);
                if (ref != null) {
                    queue.add(d.getMetadata().getNamespace() + "/" + ref.getName());
                }
            }

            @Override
            public void onDelete(D d, boolean unknownFinalState) {
                OwnerReference ref = ownRef(d);
                if (ref != null) {
                    expectations.deleted(ref.getUid());
                    queue.add(d.getMetadata().getNamespace() + "/" + ref.getName());
                }
            }
        });
        owners = client.resources(type).inAnyNamespace().runnableInformer(0);
        owners.addEventHandler(queue.<T>keysOf(o -> {
            expectations.forget(o.getMetadata().getUid());
            queue.add(Ownership.key(o));
        }));
        owners.run();
    }

    private OwnerReference ownRef(D d) {
        OwnerReference ref = Ownership.controllerOf(d);
        return ref != null && kind.equals(ref.getKind()) ? ref : null;
    }

    private void reconcile(String key) {
        T owner = owners.getStore().getByKey(key);
        if (owner == null) {
            boolean any = !owners.getStore().list().isEmpty();
            dependents.need(this, any);
            needOthers(any);
            return;
        }
        dependents.need(this, true);
        needOthers(true);
        if (!expectations.satisfied(owner.getMetadata().getUid())) {
            // the cache has not caught up with our own writes; their events queue the owner again
            return;
        }
        sync(owner, dependents.ownedBy(owner.getMetadata().getUid()));
    }

    /** Starts or stops further informers this controller reads (besides its owners and dependents). */
    void needOthers(boolean needed) {}

    /** Brings {@code owner}'s dependents and status to what its spec asks for. */
    abstract void sync(T owner, List<D> owned);

    /** Queues {@code key} ({@code namespace/name} of an owner) to be reconciled. */
    final void requeue(String key) {
        queue.add(key);
    }

    final List<T> owners() {
        return owners.getStore().list();
    }

    /** Creates {@code d} for {@code owner}; an object of that name already there counts as created. */
    final void create(T owner, D d) {
        String uid = owner.getMetadata().getUid();
        expectations.expectCreations(uid, 1);
        try {
            client.resource(d).create();
        } catch (KubernetesClientException e) {
            expectations.created(uid);
            if (e.getCode() != 409) {
                throw e;
            }
        }
    }

    final void delete(T owner, D d) {
        String uid = owner.getMetadata().getUid();
        expectations.expectDeletions(uid, 1);
        List<?> gone = client.resource(d).delete();
        if (gone.isEmpty()) {
            expectations.deleted(uid);
        }
    }

    /** Writes {@code withStatus}'s status (the status subresource) when it differs from {@code current}'s. */
    final void writeStatus(T current, T withStatus, Object currentStatus, Object newStatus) {
        if (!java.util.Objects.equals(currentStatus, newStatus)) {
            putStatus(client, withStatus);
        }
    }

    /** Writes {@code o}'s status; the stand-in is the only writer of it, so no resource version is checked. */
    static void putStatus(KubernetesClient client, HasMetadata o) {
        o.getMetadata().setResourceVersion(null);
        client.resource(o).updateStatus();
    }

    /** Creates {@code o}; one of that name already there is as good. */
    static void createIfAbsent(KubernetesClient client, HasMetadata o) {
        try {
            client.resource(o).create();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
                throw e;
            }
        }
    }

    static <X> X copy(X o) {
        return Serialization.clone(o);
    }

    @Override
    public void close() {
        queue.close();
        if (owners != null) {
            owners.stop();
        }
        dependents.need(this, false);
        needOthers(false);
    }
}
