package io.hotsched.core.scheduler;

import io.hotsched.core.config.ConfigException;
import io.hotsched.core.config.ConfigProblem;
import io.hotsched.core.config.PluginNames;
import io.hotsched.core.config.ProfileConfig;
import io.hotsched.core.config.SchedulerConfig;
import io.hotsched.core.extender.Extenders;
import io.hotsched.core.registry.PluginRegistry;
import io.hotsched.core.registry.Registration;
import io.hotsched.core.runtime.FrameworkBuilder;
import io.hotsched.core.runtime.FrameworkImpl;
import io.hotsched.core.runtime.FrameworkServices;
import io.hotsched.core.runtime.WaitingPodsImpl;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one framework per profile and swaps it in one step when the configuration or the plugins
 * present change (step 3 of the swap protocol: see this package's documentation). A profile missing a configured plugin is paused, never run
 * with fewer plugins. Retired frameworks stay alive until the attempts pinned to them end; a
 * plugin bundle leaving waits (bounded) for that, after rejecting the pods waiting in Permit on
 * its frameworks.
 */
public final class ProfileManager {

    private static final Logger LOG = LoggerFactory.getLogger(ProfileManager.class);

    private final PluginRegistry registry;
    private final FrameworkServices services;
    private final List<Consumer<ProfileState>> listeners = new CopyOnWriteArrayList<>();
    private final List<FrameworkImpl> retired = new CopyOnWriteArrayList<>();
    /** By profile, the pods waiting in Permit on any of its frameworks, current or retired. */
    private final Map<String, WaitingPodsImpl> waiting = new ConcurrentHashMap<>();

    private volatile SchedulerConfig config;
    private volatile Map<String, ProfileState> profiles = Map.of();

    public ProfileManager(PluginRegistry registry, FrameworkServices services) {
        this.registry = registry;
        this.services = services;
        registry.addListener(this::pluginChanged);
    }

    /** Hears every profile whose state changed (built, paused, replaced). */
    public void addListener(Consumer<ProfileState> l) {
        listeners.add(l);
    }

    public SchedulerConfig config() {
        return config;
    }

    public Collection<ProfileState> profiles() {
        return profiles.values();
    }

    public ProfileState profile(String name) {
        return profiles.get(name);
    }

    public boolean serves(String schedulerName) {
        return profiles.containsKey(schedulerName);
    }

    private volatile boolean shuttingDown;
    /** The extenders of the configuration in force; kept across reloads that do not change them. */
    private Extenders extenders = Extenders.NONE;

    /**
     * Validates and applies a configuration: every profile is built first; if any is invalid,
     * nothing changes and the problems are thrown. Profiles whose plugins are missing are accepted
     * and paused.
     */
    public synchronized List<String> apply(SchedulerConfig newConfig) throws ConfigException {
        Extenders ext;
        try {
            ext = Extenders.of(newConfig.extenders(), extenders);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(List.of(new ConfigProblem(newConfig.source(), 0, "", e.getMessage())));
        }
        Map<String, ProfileState> built = new LinkedHashMap<>();
        List<ConfigProblem> problems = new ArrayList<>();
        for (ProfileConfig p : newConfig.profiles()) {
            ProfileState s = build(p, newConfig, ext);
            problems.addAll(s.problems());
            built.put(p.schedulerName(), s);
        }
        String queueSort = null;
        for (ProfileState s : built.values()) {
            if (s.ready()) {
                String qs = s.framework().queueSortName();
                if (queueSort == null) {
                    queueSort = qs;
                } else if (!queueSort.equals(qs)) {
                    problems.add(new ConfigProblem(
                            newConfig.source(),
                            0,
                            s.config().path() + ".plugins.queueSort",
                            "Invalid value: \"" + qs + "\": queueSort must be the same for all profiles (\"" + queueSort
                                    + "\")"));
                }
            }
        }
        if (!problems.isEmpty()) {
            for (ProfileState s : built.values()) {
                if (s.ready()) {
                    s.framework().retire();
                }
            }
            throw new ConfigException(problems);
        }
        Map<String, ProfileState> old = profiles;
        this.config = newConfig;
        this.extenders = ext;
        this.profiles = Map.copyOf(built);
        // a dropped profile's retired frameworks keep their own reference until their pods finish
        waiting.keySet().retainAll(built.keySet());
        for (ProfileState s : old.values()) {
            retire(s);
        }
        for (ProfileState s : built.values()) {
            fire(s);
        }
        return pausedNotes(built.values());
    }

    /**
     * One line per paused profile, naming the plugins it waits for; a name that is a near miss of a
     * known plugin name is logged as a warning with the names it is near, since it is most likely a
     * typo that would otherwise keep the profile's pods pending without a word.
     */
    private List<String> pausedNotes(Collection<ProfileState> states) {
        List<String> notes = new ArrayList<>();
        Set<String> installed = registry.all().keySet();
        for (ProfileState s : states) {
            if (s.ready() || s.waitingFor().isEmpty()) {
                continue;
            }
            StringBuilder line = new StringBuilder("Profile ")
                    .append(s.name())
                    .append(" paused: waiting for plugin(s) ")
                    .append(String.join(", ", s.waitingFor()));
            boolean typo = false;
            for (String name : s.waitingFor()) {
                List<String> near = PluginNames.near(name, installed);
                if (!near.isEmpty()) {
                    typo = true;
                    line.append("; no installed bundle provides ")
                            .append(name)
                            .append(", did you mean ")
                            .append(String.join(" or ", near))
                            .append('?');
                }
            }
            String note = line.toString();
            if (typo) {
                LOG.warn(note);
            } else {
                LOG.info(note);
            }
            notes.add(note);
        }
        return notes;
    }

    /** From now on a profile pausing because its plugins leave is logged at debug level only. */
    public void shuttingDown() {
        shuttingDown = true;
    }

    /** Rebuilds the profiles that use plugin {@code name} (its serving factory may have changed). */
    public synchronized void pluginChanged(String name) {
        SchedulerConfig c = config;
        if (c == null) {
            return;
        }
        Map<String, ProfileState> next = new LinkedHashMap<>(profiles);
        List<ProfileState> changed = new ArrayList<>();
        for (ProfileState s : profiles.values()) {
            if (!FrameworkBuilder.pluginNames(s.config()).contains(name)) {
                continue;
            }
            if (s.ready() && s.framework().builtFrom(name, registry.serving(name), registry.shadow(name))) {
                // only a standby version came or went: a rebuild would change nothing but split the waiting pods'
                // frameworks
                continue;
            }
            ProfileState rebuilt = build(s.config(), c, extenders);
            if (!rebuilt.problems().isEmpty()) {
                LOG.error("Profile {} {}", s.name(), rebuilt.describe());
            } else if (!rebuilt.ready() && s.ready() && !shuttingDown) {
                LOG.warn(
                        "Profile {} paused: waiting for plugin(s) {}",
                        s.name(),
                        String.join(", ", rebuilt.waitingFor()));
            } else if (!rebuilt.ready()) {
                // still paused: one line per arriving plugin would flood the log while a bundle starts
                LOG.debug(
                        "Profile {} still waiting for plugin(s) {}", s.name(), String.join(", ", rebuilt.waitingFor()));
            } else if (!s.ready()) {
                LOG.info("Profile {} ready: all its plugins are present", s.name());
            }
            next.put(s.name(), rebuilt);
            changed.add(s);
        }
        if (changed.isEmpty()) {
            return;
        }
        this.profiles = Map.copyOf(next);
        for (ProfileState s : changed) {
            retire(s);
            fire(next.get(s.name()));
        }
    }

    private ProfileState build(ProfileConfig p, SchedulerConfig c, Extenders ext) {
        FrameworkBuilder.Result r = FrameworkBuilder.build(
                p,
                c.source(),
                c.percentageOfNodesToScore(),
                registry::serving,
                registry::shadow,
                services,
                ext,
                waiting.computeIfAbsent(p.schedulerName(), k -> new WaitingPodsImpl()));
        if (r instanceof FrameworkBuilder.Built b) {
            return new ProfileState(p, b.framework(), Set.of(), List.of());
        }
        if (r instanceof FrameworkBuilder.Missing m) {
            return new ProfileState(p, null, m.names(), List.of());
        }
        return new ProfileState(p, null, Set.of(), ((FrameworkBuilder.Invalid) r).problems());
    }

    private void retire(ProfileState s) {
        if (s.ready()) {
            FrameworkImpl f = s.framework();
            retired.add(f);
            f.retire();
            retired.removeIf(FrameworkImpl::closed);
        }
    }

    private void fire(ProfileState s) {
        for (Consumer<ProfileState> l : listeners) {
            try {
                l.accept(s);
            } catch (RuntimeException e) {
                LOG.warn("Profile listener failed: {}", e.toString());
            }
        }
    }

    /**
     * Pins the current framework of a profile for one attempt; null when the profile is paused or
     * unknown. The caller must {@link FrameworkImpl#unpin()} it.
     */
    public FrameworkImpl pin(String schedulerName) {
        while (true) {
            ProfileState s = profiles.get(schedulerName);
            if (s == null || !s.ready()) {
                return null;
            }
            if (s.framework().pin()) {
                return s.framework();
            }
            // retired and closed between the read and the pin: read the new one
            Thread.onSpinWait();
        }
    }

    /**
     * Called when a registration has left the registry: rejects the pods waiting in Permit on
     * retired frameworks that used it, then waits until those frameworks have closed, at most
     * {@code max}. True when every one closed in time.
     */
    public boolean awaitDrained(Registration leaving, Duration max) {
        List<FrameworkImpl> using = new ArrayList<>();
        for (FrameworkImpl f : retired) {
            if (!f.closed() && f.uses(leaving)) {
                using.add(f);
                f.drain("plugin " + leaving.describe() + " was removed");
            }
        }
        long deadline = System.nanoTime() + max.toNanos();
        for (FrameworkImpl f : using) {
            while (!f.closed()) {
                if (System.nanoTime() > deadline) {
                    LOG.warn(
                            "Plugin {} left while {} attempt(s) still ran on {}; they will finish on the old instance",
                            leaving.describe(),
                            f.activePins(),
                            f);
                    return false;
                }
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
        retired.removeIf(FrameworkImpl::closed);
        return true;
    }

    /** Retires every framework (the scheduler stops). */
    public synchronized void close() {
        for (ProfileState s : profiles.values()) {
            retire(s);
        }
        profiles = Map.of();
    }
}
