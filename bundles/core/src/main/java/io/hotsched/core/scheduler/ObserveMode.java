package io.hotsched.core.scheduler;

import io.hotsched.core.cache.ClusterCache;
import io.hotsched.core.config.SchedulerConfig;
import io.hotsched.core.registry.PluginRegistry;
import io.hotsched.core.runtime.FrameworkServices;
import io.hotsched.core.runtime.ObservingFramework;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Observe-only mode's settings and framework: which profile decides for which other scheduler's
 * pods, the observing framework built from that profile (anew when its plugins or the configuration
 * change), and the {@link Observer} that compares. Acts on nothing. Called under the scheduler's lock
 * (observe, reload), as the settings and the configuration change.
 */
final class ObserveMode {

    private static final Logger LOG = LoggerFactory.getLogger(ObserveMode.class);

    private final Observer observer;
    private final ProfileManager profiles;
    private final PluginRegistry registry;
    private final FrameworkServices services;
    private final ClusterCache cache;
    private final ShadowRunner shadows;
    private final EventHandlers events;
    /** The observe-only profile's framework now; null while off or while the profile is not ready. */
    private final AtomicReference<ObservingFramework> observing = new AtomicReference<>();
    /** The observe-only settings asked for, {scheduler name, profile}; null when off. */
    private volatile String[] observeAsked;

    ObserveMode(
            Observer observer,
            ProfileManager profiles,
            PluginRegistry registry,
            FrameworkServices services,
            ClusterCache cache,
            ShadowRunner shadows,
            EventHandlers events) {
        this.observer = observer;
        this.profiles = profiles;
        this.registry = registry;
        this.services = services;
        this.cache = cache;
        this.shadows = shadows;
        this.events = events;
    }

    /** A new configuration is in force: the mode asked for goes on under it, or stops saying why. */
    void reconfigured() {
        String[] asked = observeAsked;
        if (asked != null) {
            String problem = observeProblem(asked[0], asked[1]);
            if (problem != null) {
                LOG.error("Observe-only mode stopped: {}", problem);
                stop();
            } else {
                startObserving(asked[0], asked[1]);
            }
        }
    }

    /** A profile changed (rebuilt, paused, ready): the observing framework follows its profile. */
    void profileChanged(ProfileState s) {
        String[] asked = observeAsked;
        if (asked != null && asked[1].equals(s.name()) && observer.target() != null) {
            rebuildObserving(s.name());
        }
    }

    /**
     * Observe-only mode: profile {@code profile} decides for the pods of scheduler {@code
     * schedulerName} without acting, and its choices are compared with where they are bound. Both
     * empty: off.
     *
     * @throws IllegalArgumentException naming the setting and value when they cannot be observed
     */
    void observe(String schedulerName, String profile) {
        String name = schedulerName == null ? "" : schedulerName.trim();
        String prof = profile == null ? "" : profile.trim();
        if (name.isEmpty() && prof.isEmpty()) {
            if (observeAsked != null) {
                LOG.info("Observe-only mode off");
            }
            observeAsked = null;
            stop();
            return;
        }
        if (name.isEmpty() || prof.isEmpty()) {
            throw new IllegalArgumentException((name.isEmpty() ? "observeSchedulerName" : "observeProfile")
                    + ": empty while "
                    + (name.isEmpty() ? "observeProfile is \"" + prof : "observeSchedulerName is \"" + name)
                    + "\": set both, or neither (off)");
        }
        String problem = observeProblem(name, prof);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        observeAsked = new String[] {name, prof};
        startObserving(name, prof);
    }

    /** Why {@code profile} cannot observe {@code schedulerName} under the configuration in force; null when it can. */
    private String observeProblem(String schedulerName, String profile) {
        SchedulerConfig c = profiles.config();
        if (c == null) {
            return null;
        }
        List<String> names = c.profiles().stream().map(p -> p.schedulerName()).toList();
        if (!names.contains(profile)) {
            return "observeProfile: Invalid value: \"" + profile + "\": no profile has that schedulerName in "
                    + c.source() + " (profiles: " + String.join(", ", names) + ")";
        }
        if (names.contains(schedulerName)) {
            return "observeSchedulerName: Invalid value: \"" + schedulerName
                    + "\": a profile of this scheduler has that name; observe-only watches another scheduler's pods";
        }
        return null;
    }

    private void startObserving(String schedulerName, String profile) {
        Observer.Target t = observer.target();
        if (t == null
                || !t.schedulerName().equals(schedulerName)
                || !t.profile().equals(profile)) {
            ObservedDecisions decider = new ObservedDecisions(cache, schedulerName, observing, shadows::threadCpu);
            observer.observe(new Observer.Target(
                    schedulerName, profile, shadows.observingFigures(profile, schedulerName), decider));
            LOG.info("Observe-only mode: profile {} decides for the pods of {}, binding none", profile, schedulerName);
        }
        rebuildObserving(profile);
        events.observingChanged();
    }

    void stop() {
        observer.observe(null);
        swapObserving(null);
    }

    /** The observe-only profile's framework, built anew from its configuration (the plugins or the file changed). */
    private void rebuildObserving(String profile) {
        ProfileState s = profiles.profile(profile);
        ObservingFramework next = null;
        if (s != null && s.ready()) {
            try {
                next = ObservingFramework.build(s.config(), profiles.config().source(), registry::serving, services);
            } catch (IllegalStateException e) {
                LOG.error("Observe-only profile {} cannot decide: {}", profile, e.getMessage());
            }
        } else if (s != null) {
            LOG.info("Observe-only profile {} decides nothing until it is ready: {}", profile, s.describe());
        }
        swapObserving(next);
    }

    private void swapObserving(ObservingFramework next) {
        ObservingFramework old = observing.getAndSet(next);
        if (old != null) {
            old.retire();
        }
    }

    /** Whether {@code f} are the figures of the observe-only mode in force. */
    boolean observingWith(ShadowFigures f) {
        Observer.Target t = observer.target();
        return t != null && t.figures() == f;
    }

    /** Observe-only mode, as {@code sched:status} shows it. */
    String state() {
        Observer.Target t = observer.target();
        if (t == null) {
            return "off";
        }
        return "profile " + t.profile() + " decides for the pods of " + t.schedulerName() + ", binding none; "
                + observer.waiting() + " pod(s) wait to be seen bound"
                + (observing.get() == null ? "; the profile is not ready, nothing is decided" : "");
    }
}
