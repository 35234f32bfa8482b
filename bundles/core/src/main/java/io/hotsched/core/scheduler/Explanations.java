package io.hotsched.core.scheduler;

import io.hotsched.core.admin.ExplainView;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The last attempt of each pod as {@code sched:explain} shows it, bounded (oldest forgotten first).
 * Thread-safe.
 */
public final class Explanations {

    private final int max;
    private final Map<String, ExplainView> byPod;

    public Explanations(int max) {
        this.max = max;
        this.byPod = new LinkedHashMap<>(16, 0.75f, false) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, ExplainView> eldest) {
                return size() > Explanations.this.max;
            }
        };
    }

    public synchronized void put(ExplainView e) {
        byPod.remove(e.pod());
        byPod.put(e.pod(), e);
    }

    /**
     * Adds {@code note} to the pod's explanation; a pod not explained yet (its first attempt is in
     * progress) gets one that says so.
     */
    public synchronized void note(String podKey, String profile, Instant time, int attempt, String note) {
        ExplainView e = byPod.get(podKey);
        if (e == null || e.attempt() != attempt) {
            e = new ExplainView(podKey, profile, time, attempt, "in progress", "", Map.of(), List.of(), List.of());
        }
        List<String> notes = new ArrayList<>(e.notes());
        notes.add(note);
        put(new ExplainView(
                e.pod(),
                e.profile(),
                e.time(),
                e.attempt(),
                e.outcome(),
                e.message(),
                e.rejections(),
                e.topScores(),
                List.copyOf(notes)));
    }

    public synchronized ExplainView get(String podKey) {
        return byPod.get(podKey);
    }
}
