package io.hotsched.testing;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.hotsched.api.framework.Listers;
import io.hotsched.api.framework.ObjectKind;
import io.hotsched.api.framework.ObjectLister;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link Listers} over objects put in memory, for plugin unit tests (the in-memory counterpart of
 * the listers the cluster connection feeds): {@link #put} adds or replaces an object of a listed
 * kind by namespace and name, {@link #remove} takes it out.
 */
public final class InMemoryListers implements Listers {

    private final Map<String, Map<String, HasMetadata>> byKind = new ConcurrentHashMap<>();

    /** Adds {@code object}, or replaces the one of its kind with its namespace and name; its kind must be listed. */
    public InMemoryListers put(HasMetadata object) {
        ObjectKind<?> kind = kindOf(object);
        kind.cast(object);
        byKind.computeIfAbsent(kind.name(), k -> new ConcurrentHashMap<>()).put(key(kind, object), object);
        return this;
    }

    /** Removes the object of {@code object}'s kind with its namespace and name; false when there was none. */
    public boolean remove(HasMetadata object) {
        ObjectKind<?> kind = kindOf(object);
        Map<String, HasMetadata> objects = byKind.get(kind.name());
        return objects != null && objects.remove(key(kind, object)) != null;
    }

    /** Whether plugins read objects of this kind through listers. */
    public static boolean listed(HasMetadata object) {
        return object.getKind() != null && ObjectKind.listed(object.getKind()) != null;
    }

    private static ObjectKind<?> kindOf(HasMetadata object) {
        ObjectKind<?> kind = object.getKind() == null ? null : ObjectKind.listed(object.getKind());
        if (kind == null) {
            throw new IllegalArgumentException(
                    "kind " + object.getKind() + " is not read through listers; listed kinds: "
                            + ObjectKind.LISTED.stream().map(ObjectKind::name).toList());
        }
        return kind;
    }

    private static String key(ObjectKind<?> kind, HasMetadata o) {
        String ns =
                kind.namespaced() ? Objects.requireNonNullElse(o.getMetadata().getNamespace(), "default") : "";
        return ns + "/" + o.getMetadata().getName();
    }

    @Override
    public <T extends HasMetadata> ObjectLister<T> lister(ObjectKind<T> kind) {
        return new ObjectLister<>() {
            @Override
            public T get(String namespace, String name) {
                String ns = kind.namespaced() ? Objects.requireNonNullElse(namespace, "default") : "";
                HasMetadata o = objects().get(ns + "/" + name);
                return o == null ? null : kind.cast(o);
            }

            @Override
            public List<T> list() {
                List<T> out = new ArrayList<>();
                objects().values().forEach(o -> out.add(kind.cast(o)));
                return out;
            }

            @Override
            public List<T> list(String namespace) {
                List<T> out = new ArrayList<>();
                for (HasMetadata o : objects().values()) {
                    if (namespace.equals(o.getMetadata().getNamespace())) {
                        out.add(kind.cast(o));
                    }
                }
                return out;
            }

            private Map<String, HasMetadata> objects() {
                return byKind.getOrDefault(kind.name(), Map.of());
            }
        };
    }
}
