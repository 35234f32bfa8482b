package io.hotsched.plugins.defaults.volumebinding;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.hotsched.api.framework.ObjectKind;
import io.hotsched.api.framework.ObjectLister;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * The objects of one kind as the cluster connection reports them, with the versions this plugin
 * instance has assumed laid over them (upstream's assume cache): a PersistentVolume prebound to a
 * claim in Reserve is seen bound by the next pod's Filter before the API update is made. An assumed
 * version stays until the reported object moves past the version it was made from (the informer
 * caught up, or someone else changed the object), then the reported one is seen again; it is read
 * on each access, not pushed by events, so nothing needs to be told of changes. Where this instance
 * has assumed nothing, the other instances' assumptions ({@link SharedAssumptions}) are laid over.
 */
final class AssumeCache<T extends HasMetadata> {

    private final ObjectKind<T> kind;
    private final ObjectLister<T> lister;
    private final Map<String, T> assumed = new ConcurrentHashMap<>();
    /** What the other instances assumed, laid over a reported object this one has not assumed. */
    private final UnaryOperator<T> others;

    AssumeCache(ObjectKind<T> kind, ObjectLister<T> lister, UnaryOperator<T> others) {
        this.kind = kind;
        this.lister = lister;
        this.others = others;
    }

    /** The object as reported by the cluster, without assumptions (upstream's GetAPIObj). */
    T api(String namespace, String name) {
        return lister.get(kind.namespaced() ? namespace : null, name);
    }

    /** The latest version: the assumed one while the reported object has not moved past it. */
    T get(String namespace, String name) {
        T api = api(namespace, name);
        String key = key(namespace, name);
        T a = assumed.get(key);
        if (a != null && (api == null || version(api) > version(a))) {
            assumed.remove(key, a);
            a = null;
        }
        if (a != null) {
            return a;
        }
        return api == null ? null : others.apply(api);
    }

    /** The latest versions of the objects that {@code filter} accepts. */
    List<T> list(Predicate<T> filter) {
        List<T> out = new ArrayList<>();
        for (T api : lister.list()) {
            T latest = get(api.getMetadata().getNamespace(), api.getMetadata().getName());
            if (latest != null && filter.test(latest)) {
                out.add(latest);
            }
        }
        return out;
    }

    /**
     * Lays {@code object} over the reported one until the cluster moves past it; refused when the
     * object is unknown, or made from an older version than the latest.
     */
    void assume(T object) {
        String ns = object.getMetadata().getNamespace();
        String name = object.getMetadata().getName();
        T latest = get(ns, name);
        if (latest == null) {
            throw new IllegalStateException(kind.name() + " \"" + name + "\" not found in the assume cache");
        }
        if (version(object) < version(latest)) {
            throw new IllegalStateException(kind.name() + " \"" + name + "\" is out of sync (stored: " + version(latest)
                    + ", assume: " + version(object) + ")");
        }
        assumed.put(key(ns, name), object);
    }

    /** Drops the assumed version of the object; the reported one is seen again. */
    void restore(String namespace, String name) {
        assumed.remove(key(namespace, name));
    }

    /** How many objects carry an assumed version now (for the plugin's state). */
    int assumedCount() {
        return assumed.size();
    }

    private String key(String namespace, String name) {
        return kind.namespaced() ? (namespace == null ? "default" : namespace) + "/" + name : name;
    }

    /** The resourceVersion as a number; 0 for none, as objects of tests have. */
    static long version(HasMetadata o) {
        String v = o.getMetadata().getResourceVersion();
        if (v == null || v.isEmpty()) {
            return 0;
        }
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
