package io.hotsched.api.framework;

import java.util.List;
import java.util.Map;
import org.osgi.annotation.versioning.ProviderType;

/**
 * What plugins reserved for the pods the scheduler has assumed, kept by the framework as plain
 * strings beside each assumed pod. A plugin that holds state between Reserve and the moment its
 * API writes show in the listers (assumed volume bindings, device allocations) records it here, so
 * that every other instance of the same plugin sees it: the instance of a newer version that
 * serves while the old one finishes its pods after a bundle upgrade, and the instance of another
 * profile. Strings, not objects, because the instances may come from different class loaders.
 *
 * <p>Contract:
 *
 * <ul>
 *   <li>a record belongs to a plugin name and an assumed pod; it ends when the pod stops being
 *       assumed (the cluster reports it bound, its attempt is given up, or the assumption expires),
 *       or when the plugin drops it;
 *   <li>{@link #record} for a pod that is not assumed (any more) records nothing, so no record
 *       outlives its pod;
 *   <li>{@link #of} sees the records of every instance of the plugin, the caller's own included.
 * </ul>
 *
 * <p>Thread-safe.
 *
 * @since 1.8
 */
@ProviderType
public interface Reservations {

    /** One plugin's record for one assumed pod. */
    record Reservation(String podUid, String podKey, String node, Map<String, String> entries) {
        public Reservation {
            entries = Map.copyOf(entries);
        }
    }

    /**
     * Records what {@code plugin} reserved for the assumed {@code pod}, replacing the plugin's
     * earlier record for that pod; call it from Reserve, once the pod is assumed. Ignored when the
     * pod is not assumed.
     */
    void record(String plugin, PodInfo pod, Map<String, String> entries);

    /** Drops {@code plugin}'s record for the pod (from Unreserve); nothing when there is none. */
    void drop(String plugin, PodInfo pod);

    /** The records of {@code plugin} for the pods assumed now, made by any instance; a copy. */
    List<Reservation> of(String plugin);
}
