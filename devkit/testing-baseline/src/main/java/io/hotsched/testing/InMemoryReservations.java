package io.hotsched.testing;

import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Reservations;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link Reservations} for plugin unit tests. There is no cache here that assumes pods, so every
 * record is kept until the plugin drops it or the test says the pod stopped being assumed
 * ({@link #ended}), as the scheduler's cache does when the cluster reports the pod bound.
 */
public final class InMemoryReservations implements Reservations {

    private final Map<String, Map<String, Reservation>> byPlugin = new ConcurrentHashMap<>();

    @Override
    public void record(String plugin, PodInfo pod, Map<String, String> entries) {
        String node = pod.nodeName() == null ? "" : pod.nodeName();
        byPlugin.computeIfAbsent(plugin, k -> new ConcurrentHashMap<>())
                .put(pod.uid(), new Reservation(pod.uid(), pod.key(), node, entries));
    }

    @Override
    public void drop(String plugin, PodInfo pod) {
        Map<String, Reservation> records = byPlugin.get(plugin);
        if (records != null) {
            records.remove(pod.uid());
        }
    }

    @Override
    public List<Reservation> of(String plugin) {
        Map<String, Reservation> records = byPlugin.get(plugin);
        return records == null ? List.of() : new ArrayList<>(records.values());
    }

    /** The pod is no longer assumed: its records end, whoever made them. */
    public void ended(String podUid) {
        byPlugin.values().forEach(records -> records.remove(podUid));
    }
}
