package io.hotsched.core.scheduler;

import io.hotsched.core.registry.PluginRegistry;
import io.hotsched.core.registry.Registration;
import java.util.List;
import java.util.Optional;

/**
 * Shadows on this replica, as the shell and the settings drive them: which plugin version runs in
 * shadow (the registry decides what serves), the figures the shadow runner keeps, and its limits.
 */
public final class ShadowControl {

    private final PluginRegistry registry;
    private final ShadowRunner shadows;

    ShadowControl(PluginRegistry registry, ShadowRunner shadows) {
        this.registry = registry;
        this.shadows = shadows;
    }

    /**
     * Puts version {@code version} of plugin {@code name} in shadow on this replica.
     *
     * @throws IllegalArgumentException when there is no such plugin or version
     * @throws IllegalStateException when no other version could serve
     */
    public Registration start(String name, String version) {
        shadows.forget(name);
        return registry.startShadow(name, version);
    }

    /** Puts {@code r} in shadow even when no other version serves ({@link PluginRegistry#putInShadow}). */
    public void putInShadow(Registration r) {
        shadows.forget(r.name());
        registry.putInShadow(r);
    }

    /** Ends the shadow of {@code name}; the registration that was in shadow, if any. */
    public Optional<Registration> stop(String name) {
        return registry.stopShadow(name);
    }

    /** The shadow of {@code name} serves from now on; the version that served stands by. */
    public Registration promote(String name) {
        return registry.promote(name);
    }

    /** The figures of every plugin version run in shadow since start (or since its shadow began). */
    public List<ShadowFigures> figures() {
        return shadows.all();
    }

    /** The figures of {@code plugin}'s shadow {@code shadowVersion} beside {@code servingVersion}, made when new. */
    public ShadowFigures figures(String plugin, String servingVersion, String shadowVersion) {
        return shadows.figures(plugin, servingVersion, shadowVersion);
    }

    /** The share of pods shadows run for, and the CPU share they may take of the scheduling loop's, in percent. */
    public void setLimits(int samplePercent, int cpuSharePercent) {
        shadows.setSamplePercent(Math.min(100, samplePercent));
        shadows.setCpuSharePercent(cpuSharePercent);
    }

    /** The shadows' limits, as {@code sched:status} shows them. */
    public String limits() {
        return "sample " + shadows.samplePercent() + "% of pods, CPU share " + shadows.cpuSharePercent()
                + "% of the scheduling loop's";
    }

    /** Waits until the shadows have compared every pod handed to them (tests). */
    public boolean awaitIdle(long millis) throws InterruptedException {
        return shadows.awaitIdle(millis);
    }
}
