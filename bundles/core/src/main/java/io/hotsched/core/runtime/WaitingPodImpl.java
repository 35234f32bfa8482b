package io.hotsched.core.runtime;

import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;
import io.hotsched.api.framework.WaitingPod;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/** A pod held in Permit: one timer per waiting plugin, and one outcome. */
final class WaitingPodImpl implements WaitingPod {

    private final PodInfo pod;
    private final String nodeName;
    private final Set<String> pending;
    private final List<ScheduledFuture<?>> timers = new ArrayList<>();
    private final CompletableFuture<Status> outcome = new CompletableFuture<>();

    WaitingPodImpl(PodInfo pod, String nodeName, Map<String, Duration> timeouts, ScheduledExecutorService timer) {
        this.pod = pod;
        this.nodeName = nodeName;
        this.pending = Collections.synchronizedSet(new LinkedHashSet<>(timeouts.keySet()));
        for (Map.Entry<String, Duration> e : new LinkedHashMap<>(timeouts).entrySet()) {
            String plugin = e.getKey();
            Duration d = e.getValue();
            timers.add(timer.schedule(
                    () -> reject(plugin, "rejected due to timeout after waiting " + format(d) + " at plugin " + plugin),
                    d.toMillis(),
                    TimeUnit.MILLISECONDS));
        }
    }

    @Override
    public PodInfo pod() {
        return pod;
    }

    @Override
    public String nodeName() {
        return nodeName;
    }

    @Override
    public Set<String> pendingPlugins() {
        synchronized (pending) {
            return Set.copyOf(pending);
        }
    }

    @Override
    public void allow(String plugin) {
        boolean last;
        synchronized (pending) {
            last = pending.remove(plugin) && pending.isEmpty();
        }
        if (last) {
            cancelTimers();
            outcome.complete(Status.SUCCESS);
        }
    }

    @Override
    public void reject(String plugin, String message) {
        cancelTimers();
        outcome.complete(Status.unschedulable(message).withPlugin(plugin));
    }

    CompletableFuture<Status> outcome() {
        return outcome;
    }

    private void cancelTimers() {
        for (ScheduledFuture<?> t : timers) {
            t.cancel(false);
        }
    }

    private static String format(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
    }
}
