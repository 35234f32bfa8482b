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
}
