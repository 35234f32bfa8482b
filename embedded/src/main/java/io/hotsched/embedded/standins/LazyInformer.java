package io.hotsched.embedded.standins;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An informer of one kind, indexed by controller owner, that runs only while some controller needs
 * it: the pod informer runs while workload objects exist, so that an embedded server without any
 * (the benchmark's, a scheduler test's) has no watcher more and keeps no copy of its pods.
 */
final class LazyInformer<T extends HasMetadata> implements AutoCloseable {

    static final String BY_OWNER = "controller-owner";

    private final KubernetesClient client;
    private final Class<T> type;
    private final List<ResourceEventHandler<T>> handlers = new ArrayList<>();
    private final Set<Object> needers = new HashSet<>();
    private SharedIndexInformer<T> informer;

    LazyInformer(KubernetesClient client, Class<T> type) {
        this.client = client;
        this.type = type;
    }

    synchronized void addHandler(ResourceEventHandler<T> handler) {
        handlers.add(handler);
        if (informer != null) {
            informer.addEventHandler(handler);
        }
    }

    /**
     * {@code who} needs the informer ({@code true}) or no longer does; the first need starts it and
     * returns once it has listed, the last release stops it.
     */
    synchronized void need(Object who, boolean needed) {
        if (needed) {
            needers.add(who);
            if (informer == null) {
                SharedIndexInformer<T> i = client.resources(type)
                        .inAnyNamespace()
                        .withIndexers(Map.of(BY_OWNER, LazyInformer::controllerUid))
                        .runnableInformer(0);
                handlers.forEach(i::addEventHandler);
                i.run();
                informer = i;
            }
        } else if (needers.remove(who) && needers.isEmpty() && informer != null) {
            informer.stop();
            informer = null;
        }
    }

    /** The cached objects whose controller owner has {@code uid}; empty while the informer is not running. */
    synchronized List<T> ownedBy(String uid) {
        return informer == null ? List.of() : informer.getIndexer().byIndex(BY_OWNER, uid);
    }

    /** The cached object of key {@code namespace/name}; null when absent or not running. */
    synchronized T get(String key) {
        return informer == null ? null : informer.getStore().getByKey(key);
    }

    synchronized List<T> all() {
        return informer == null ? List.of() : informer.getStore().list();
    }

    private static List<String> controllerUid(HasMetadata o) {
        OwnerReference ref = Ownership.controllerOf(o);
        return ref == null ? List.of() : List.of(ref.getUid());
    }

    @Override
    public synchronized void close() {
        if (informer != null) {
            informer.stop();
            informer = null;
        }
        needers.clear();
    }
}
