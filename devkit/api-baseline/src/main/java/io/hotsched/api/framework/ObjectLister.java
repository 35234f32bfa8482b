package io.hotsched.api.framework;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;
import org.osgi.annotation.versioning.ProviderType;

/**
 * The objects of one {@link ObjectKind} as the cluster connection last reported them (upstream's
 * informer listers). Not a snapshot: an object may change between two calls, so a plugin reads
 * what it needs once per attempt (PreFilter) where it must be consistent. The objects are shared:
 * never change them.
 *
 * @since 1.7
 */
@ProviderType
public interface ObjectLister<T extends HasMetadata> {

    /** The object named {@code name} in {@code namespace} (null for a cluster-scoped kind), or null. */
    T get(String namespace, String name);

    /** The cluster-scoped object named {@code name}, or null. */
    default T get(String name) {
        return get(null, name);
    }

    /** Every object, in no particular order; a list of its own, taken at the call. */
    List<T> list();

    /** The objects of {@code namespace}, in no particular order. */
    List<T> list(String namespace);
}
