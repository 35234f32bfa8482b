package io.hotsched.api.framework;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * A scheduling plugin: one instance per profile that enables it, created by its
 * {@link PluginFactory}. It also implements one or more extension-point interfaces
 * ({@link FilterPlugin}, {@link ScorePlugin} ...); the framework finds them by type.
 *
 * <p>Instances may be called from several threads at once (Filter and Score run in parallel over
 * nodes, binding cycles run in parallel over pods): state shared across calls must be
 * thread-safe. A plugin must not start threads of its own; it uses
 * {@link Handle#parallelizer()}.
 */
@ConsumerType
public interface Plugin extends AutoCloseable {

    /** The plugin's name, as configured in profiles; constant for the life of the instance. */
    String name();

    /**
     * Called once when the framework that holds this instance is retired and the last scheduling
     * attempt pinned to it has finished, or when the plugin's bundle leaves. Releases what the
     * instance holds; no extension point is called afterwards. Must not throw.
     */
    @Override
    default void close() {}
}
