package io.hotsched.core.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.hotsched.api.framework.Listers;
import io.hotsched.api.framework.ObjectKind;
import io.hotsched.api.framework.ObjectLister;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The latest state of the other kinds the cluster connection follows (Namespace, Service,
 * ReplicaSet, NodeMetric, the volume kinds ...), by kind and namespace/name, for plugins to look
 * up, by kind name or through the typed {@link Listers}.
 */
public final class ObjectStore implements Listers {

    public static final String NAMESPACE = "Namespace";

    private final Map<String, Map<String, HasMetadata>> byKind = new ConcurrentHashMap<>();

    /** An add ({@code oldObject} null), update, or delete ({@code newObject} null). */
    public void changed(String kind, HasMetadata oldObject, HasMetadata newObject) {
        Map<String, HasMetadata> objects = byKind.computeIfAbsent(kind, k -> new ConcurrentHashMap<>());
        if (newObject == null) {
            if (oldObject != null) {
                objects.remove(key(oldObject));
            }
        } else {
            objects.put(key(newObject), newObject);
        }
    }

    /** The objects of {@code kind}, in no particular order; empty for a kind never reported. */
    public List<HasMetadata> list(String kind) {
        Map<String, HasMetadata> objects = byKind.get(kind);
        return objects == null ? List.of() : List.copyOf(objects.values());
    }

    /** The object of {@code kind} in {@code namespace} (null: cluster-scoped) named {@code name}, or null. */
    public HasMetadata get(String kind, String namespace, String name) {
        Map<String, HasMetadata> objects = byKind.get(kind);
        return objects == null ? null : objects.get(namespace == null ? name : namespace + "/" + name);
    }

    /** The labels of namespace {@code name}; empty when it is unknown. */
    public Map<String, String> namespaceLabels(String name) {
        Map<String, HasMetadata> namespaces = byKind.get(NAMESPACE);
        HasMetadata ns = namespaces == null ? null : namespaces.get(name);
        Map<String, String> labels = ns == null ? null : ns.getMetadata().getLabels();
        return labels == null ? Map.of() : labels;
    }

    @Override
    public <T extends HasMetadata> ObjectLister<T> lister(ObjectKind<T> kind) {
        return new KindLister<>(kind);
    }

    /** A typed view of one kind's objects; reads the store at each call. */
    private final class KindLister<T extends HasMetadata> implements ObjectLister<T> {
        private final ObjectKind<T> kind;

        KindLister(ObjectKind<T> kind) {
            this.kind = kind;
        }

        @Override
        public T get(String namespace, String name) {
            HasMetadata o = ObjectStore.this.get(kind.name(), kind.namespaced() ? namespace : null, name);
            return o == null ? null : kind.cast(o);
        }

        @Override
        public List<T> list() {
            Map<String, HasMetadata> objects = byKind.get(kind.name());
            if (objects == null) {
                return List.of();
            }
            List<T> out = new ArrayList<>(objects.size());
            objects.values().forEach(o -> out.add(kind.cast(o)));
            return out;
        }

        @Override
        public List<T> list(String namespace) {
            Map<String, HasMetadata> objects = byKind.get(kind.name());
            if (objects == null) {
                return List.of();
            }
            List<T> out = new ArrayList<>();
            for (HasMetadata o : objects.values()) {
                if (namespace.equals(o.getMetadata().getNamespace())) {
                    out.add(kind.cast(o));
                }
            }
            return out;
        }
    }

    private static String key(HasMetadata o) {
        ObjectMeta m = o.getMetadata();
        return m.getNamespace() == null ? m.getName() : m.getNamespace() + "/" + m.getName();
    }
}
