package io.hotsched.core.admin;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.osgi.annotation.versioning.ProviderType;

/** The scheduler's operator interface, registered as a service by the core. Thread-safe. */
@ProviderType
public interface SchedulerAdmin {

    List<PluginView> plugins();

    List<ProfileView> profiles();

    QueueView queue();

    /** The last attempt of {@code namespace/name}, if the pod was tried since start. */
    Optional<ExplainView> explain(String podKey);

    /**
     * Reads the configuration file again and applies it.
     *
     * @return what happened: applied, or refused with every problem (file, line, field)
     */
    String reload();

    /** Ends the quarantine of plugin {@code name}; false when it was not quarantined. */
    boolean release(String name);

    /** Where the configuration comes from, and the counters since start. */
    String status();

    /**
     * What plugin {@code plugin} shows of its state ({@link io.hotsched.api.framework.StateDescriber}),
     * for {@code node} or all nodes (null), per ready profile that uses it; empty when no profile
     * uses it, and a profile whose instance describes nothing maps to a note saying so.
     *
     * @since 1.1
     */
    Map<String, Object> pluginState(String plugin, String node);

    /**
     * Every plugin version in shadow now or since start on this replica, and the observe-only
     * profiles, with their figures.
     *
     * @since 1.3
     */
    List<ShadowView> shadows();

    /**
     * Puts version {@code version} of {@code plugin} in shadow on this replica.
     *
     * @return what happened, or why not (no such plugin or version, or no other version to serve)
     * @since 1.3
     */
    String startShadow(String plugin, String version);

    /**
     * Ends the shadow of {@code plugin} on this replica; the version stands by.
     *
     * @since 1.3
     */
    String stopShadow(String plugin);

    /**
     * The shadow of {@code plugin} serves from now on, on this replica; the version that served
     * stands by.
     *
     * @since 1.3
     */
    String promote(String plugin);

    /**
     * Sets, for the whole fleet, whether the plugins of bundle {@code symbolicName} {@code version}
     * run in shadow: plugin delivery calls it for a SchedulerPlugin's {@code spec.shadow} on every
     * replica, before it installs the bundle. Plugins of that bundle that arrive later come in shadow
     * as with the {@code Hotsched-Shadow} header; those already here are put in shadow
     * ({@code true}, even when no other version serves: the profiles then wait for one) or promoted
     * ({@code false}: they serve, the version that served stands by).
     *
     * @return what changed, one line each; empty when nothing did
     * @throws IllegalArgumentException when {@code version} is not an OSGi version
     * @since 1.4
     */
    List<String> shadowBundle(String symbolicName, String version, boolean shadow);
}
