package io.hotsched.core.scheduler;

import io.hotsched.api.framework.CycleState;
import io.hotsched.core.metrics.SchedulerMetrics;
import io.hotsched.core.registry.PluginHealth;
import io.hotsched.core.registry.PluginRegistry;
import io.hotsched.core.registry.Registration;
import io.hotsched.core.runtime.CallWatch;
import io.hotsched.core.runtime.FrameworkImpl;
import io.hotsched.core.runtime.PluginInstance;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts plugin faults against their registrations: once per attempt for each faulty plugin when
 * the attempt ends, at once for a call given up on or a fault outside an attempt. After the
 * health's threshold of failed attempts in a row, the registration is quarantined and the profiles
 * using it are rebuilt (paused) without it.
 */
record PluginFaults(PluginHealth health, PluginRegistry registry, SchedulerMetrics metrics) {

    private static final Logger LOG = LoggerFactory.getLogger(PluginFaults.class);

    /** The attempt of {@code state} ended: its faulty plugins fail once, the others succeed. */
    void settle(FrameworkImpl fw, CycleState state) {
        Map<PluginInstance, String> faults = fw.faults(state);
        for (PluginInstance i : fw.instances()) {
            if (i.registration() == null) {
                continue;
            }
            String fault = faults.get(i);
            if (fault == null) {
                health.succeeded(i.registration());
            } else {
                failed(i, fault);
            }
        }
    }

    /**
     * The watchdog gave up the call {@code o} at {@code now}: a time-out of its plugin that counts
     * now, as {@code hotsched_plugin_faults_total} counts it. Returns how the call is named.
     */
    String gaveUp(CallWatch.Overdue o, long now) {
        String message = o.stillRunning(now);
        metrics.countFault(o.instance().name(), o.call().point().label(), SchedulerMetrics.FAULT_TIMEOUT);
        failed(o.instance(), message);
        return message;
    }

    /** {@code r} used more than it may ({@code reason} says what): quarantined at once. */
    void overBudget(Registration r, String reason) {
        if (health.quarantine(r, reason)) {
            LOG.error(
                    "Plugin {} quarantined: {}. Profiles using it pause until its bundle is updated or "
                            + "'sched:release {}' is run.",
                    r.describe(),
                    reason,
                    r.name());
            registry.changed(r.name());
        }
    }

    /** A fault of {@code instance} that counts now. */
    void failed(PluginInstance instance, String fault) {
        Registration r = instance.registration();
        if (r != null && health.failed(r, fault)) {
            LOG.error(
                    "Plugin {} quarantined after {} failed attempts in a row; last: {}. Profiles using it pause until "
                            + "its bundle is updated or 'sched:release {}' is run.",
                    instance,
                    health.threshold(),
                    fault,
                    instance.name());
            registry.changed(instance.name());
        }
    }
}
