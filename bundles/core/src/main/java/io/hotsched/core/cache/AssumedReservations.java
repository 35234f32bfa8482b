package io.hotsched.core.cache;

import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Reservations;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The plugins' records of the pods the {@link ClusterCache} assumes. Guarded by the cache's lock,
 * which the cache holds when it tells of a pod no longer assumed, so that a record can neither be
 * made for a pod the cache has just confirmed nor outlive it.
 */
final class AssumedReservations implements Reservations {

    private final Object lock;
    /** The node of an assumed pod, or null when the pod is not assumed; called under the lock. */
    private final Function<String, String> assumedOn;

    private final Map<String, Map<String, Reservation>> byPlugin = new HashMap<>();
    private final Map<String, Set<String>> pluginsByPod = new HashMap<>();

    AssumedReservations(Object lock, Function<String, String> assumedOn) {
        this.lock = lock;
        this.assumedOn = assumedOn;
    }

    @Override
    public void record(String plugin, PodInfo pod, Map<String, String> entries) {
        synchronized (lock) {
            String node = assumedOn.apply(pod.uid());
            if (node == null) {
                return;
            }
            byPlugin.computeIfAbsent(plugin, k -> new HashMap<>())
                    .put(pod.uid(), new Reservation(pod.uid(), pod.key(), node, entries));
            pluginsByPod.computeIfAbsent(pod.uid(), k -> new HashSet<>()).add(plugin);
        }
    }

    @Override
    public void drop(String plugin, PodInfo pod) {
        synchronized (lock) {
            Map<String, Reservation> records = byPlugin.get(plugin);
            if (records == null || records.remove(pod.uid()) == null) {
                return;
            }
            if (records.isEmpty()) {
                byPlugin.remove(plugin);
            }
            Set<String> plugins = pluginsByPod.get(pod.uid());
            plugins.remove(plugin);
            if (plugins.isEmpty()) {
                pluginsByPod.remove(pod.uid());
            }
        }
    }

    @Override
    public List<Reservation> of(String plugin) {
        synchronized (lock) {
            Map<String, Reservation> records = byPlugin.get(plugin);
            return records == null ? List.of() : new ArrayList<>(records.values());
        }
    }

    /** The pod is no longer assumed: its records end. Called by the cache under the lock. */
    void ended(String uid) {
        Set<String> plugins = pluginsByPod.remove(uid);
        if (plugins == null) {
            return;
        }
        for (String plugin : plugins) {
            Map<String, Reservation> records = byPlugin.get(plugin);
            records.remove(uid);
            if (records.isEmpty()) {
                byPlugin.remove(plugin);
            }
        }
    }

    /** How many pods have records (for the cache's own figures and tests). */
    int pods() {
        synchronized (lock) {
            return pluginsByPod.size();
        }
    }
}
