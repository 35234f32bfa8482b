package io.hotsched.core.scheduler;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The last attempt of each pod, bounded (oldest forgotten first). Thread-safe. */
public final class Explanations {

    private final int max;
    private final Map<String, Explanation> byPod;

    public Explanations(int max) {
        this.max = max;
        this.byPod = new LinkedHashMap<>(16, 0.75f, false) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Explanation> eldest) {
                return size() > Explanations.this.max;
            }
        };
    }

    public synchronized void put(Explanation e) {
        byPod.remove(e.podKey());
        byPod.put(e.podKey(), e);
    }

    /**
     * Adds {@code note} to the pod's explanation; a pod not explained yet (its first attempt is in
     * progress) gets one that says so.
     */
    public synchronized void note(String podKey, String profile, Instant time, int attempt, String note) {
        Explanation e = byPod.get(podKey);
        if (e == null || e.attempt() != attempt) {
            e = new Explanation(podKey, profile, time, attempt, "in progress", "", Map.of(), List.of(), List.of());
        }
        put(e.withNote(note));
    }

    public synchronized Explanation get(String podKey) {
        return byPod.get(podKey);
    }
}
