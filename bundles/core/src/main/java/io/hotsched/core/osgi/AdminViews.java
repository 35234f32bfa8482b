package io.hotsched.core.osgi;

import io.hotsched.api.framework.StateDescriber;
import io.hotsched.core.admin.ExplainView;
import io.hotsched.core.admin.PluginView;
import io.hotsched.core.admin.ProfileView;
import io.hotsched.core.admin.QueueView;
import io.hotsched.core.queue.QueueEntry;
import io.hotsched.core.registry.PluginHealth;
import io.hotsched.core.registry.Registration;
import io.hotsched.core.runtime.FrameworkImpl;
import io.hotsched.core.runtime.PluginInstance;
import io.hotsched.core.scheduler.ProfileState;
import io.hotsched.core.scheduler.Scheduler;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/** Turns the scheduler's state into the views of {@link io.hotsched.core.admin.SchedulerAdmin}. */
final class AdminViews {

    private AdminViews() {}

    static List<PluginView> plugins(Scheduler s) {
        List<PluginView> out = new ArrayList<>();
        PluginHealth health = s.health();
        for (Map.Entry<String, List<Registration>> e :
                new TreeMap<>(s.registry().all()).entrySet()) {
            Registration serving = s.registry().serving(e.getKey()).orElse(null);
            for (Registration r : e.getValue()) {
                Set<String> points = new LinkedHashSet<>();
                List<String> profiles = new ArrayList<>();
                for (ProfileState p : s.profiles().profiles()) {
                    FrameworkImpl f = p.framework();
                    if (f != null && f.uses(r)) {
                        profiles.add(p.name());
                        points.addAll(f.pointsByPlugin().getOrDefault(r.name(), List.of()));
                    }
                }
                String state = health.quarantined(r)
                        ? "quarantined"
                        : health.stuck(r)
                                ? "stuck"
                                : s.registry().inShadow(r)
                                        ? "shadow"
                                        : serving != null && serving.serviceId() == r.serviceId()
                                                ? "active"
                                                : "standby";
                PluginHealth.Counters c = health.counters(r);
                out.add(new PluginView(
                        r.name(),
                        r.bundle(),
                        r.version().toString(),
                        state,
                        List.copyOf(points),
                        profiles,
                        c.failures(),
                        c.lastError()));
            }
        }
        return out;
    }

    /** Per ready profile using {@code plugin}: what its instance shows, or why nothing. */
    static Map<String, Object> pluginState(Scheduler s, String plugin, String node) {
        Map<String, Object> out = new TreeMap<>();
        for (ProfileState p : s.profiles().profiles()) {
            FrameworkImpl f = p.framework();
            if (f == null) {
                continue;
            }
            for (PluginInstance i : f.instances()) {
                if (!i.name().equals(plugin)) {
                    continue;
                }
                if (i.plugin() instanceof StateDescriber d) {
                    try {
                        out.put(p.name(), d.describeState(node));
                    } catch (RuntimeException e) {
                        out.put(p.name(), "describing the state failed: " + e);
                    }
                } else {
                    out.put(p.name(), plugin + " does not describe its state");
                }
            }
        }
        return out;
    }

    static List<ProfileView> profiles(Scheduler s) {
        List<ProfileView> out = new ArrayList<>();
        for (ProfileState p : s.profiles().profiles()) {
            FrameworkImpl f = p.framework();
            out.add(new ProfileView(
                    p.name(), p.describe(), f == null ? 0 : f.instances().size(), f == null ? 0 : f.activePins()));
        }
        out.sort(Comparator.comparing(ProfileView::name));
        return out;
    }

    static QueueView queue(Scheduler s) {
        List<QueueView.Entry> pods = new ArrayList<>();
        for (QueueEntry e : s.queue().entries()) {
            pods.add(new QueueView.Entry(
                    e.podKey(), e.queue(), e.attempts(), List.copyOf(e.unschedulablePlugins()), e.lastFailure()));
        }
        pods.sort(Comparator.comparing(QueueView.Entry::pod));
        return new QueueView(s.queue().counts(), pods);
    }

    static Optional<ExplainView> explain(Scheduler s, String podKey) {
        return Optional.ofNullable(s.explain(podKey));
    }
}
