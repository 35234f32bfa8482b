package io.hotsched.core.scheduler;

import java.util.ArrayList;
import java.util.List;

/**
 * What {@code /readyz} and {@code /livez} answer, as kube-scheduler's probes mean them: ready once
 * it can schedule every pod it serves, live while nothing holds it that it cannot give up.
 */
record Probes(EventHandlers events, ProfileManager profiles, Liveness liveness) {

    /** Why the scheduler cannot schedule every pod it serves yet (not synced, a profile waiting or refused); null when it can. */
    String notReady(boolean running) {
        if (!running) {
            return "not running";
        }
        if (!events.isSynced()) {
            return "the cluster is not synced yet";
        }
        List<String> waiting = new ArrayList<>();
        for (ProfileState p : profiles.profiles()) {
            if (!p.ready()) {
                waiting.add("profile " + p.name() + " " + p.describe());
            }
        }
        return waiting.isEmpty() ? null : String.join("; ", waiting);
    }

    /** Why the scheduler is not live (stopped, or held by a call under the queue's lock); null when it is. */
    String notLive(boolean running) {
        return running ? liveness.problem() : "not running";
    }
}
