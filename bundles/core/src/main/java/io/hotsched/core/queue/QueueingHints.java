package io.hotsched.core.queue;

import io.hotsched.api.framework.ActionType;
import io.hotsched.api.framework.ClusterEventWithHint;
import io.hotsched.api.framework.QueueingHint;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Whether a cluster event may make an unschedulable pod schedulable (upstream's
 * isPodWorthRequeuing): yes when the pod was rejected by no plugin in particular, or when one of the
 * plugins that rejected it registered the event (or no events at all) and its queueing hint, if
 * any, says Queue. A hint that throws counts as Queue: a pod retried once too often costs an
 * attempt, one never retried is lost.
 *
 * <p>Hints are plugin code called here and not through the guarded call (the architecture test
 * names this class as the one exception): they run per pod and event under the queue's lock, where
 * a time-out could free nothing, as for PreEnqueue and QueueSort. What a hint throws, a {@link
 * LinkageError} of a bundle missing a class included, is a fault of its plugin all the same.
 */
public final class QueueingHints {

    /** Told of a hint that threw. */
    @FunctionalInterface
    public interface Faults {
        /** The hint of {@code plugin}, in the pod's profile {@code profile}, threw; {@code message} says how. */
        void hintFailed(String profile, String plugin, String message);
    }

    /** The {@code extension_point} label of a hint's faults in {@code hotsched_plugin_faults_total}. */
    public static final String FAULT_POINT = "QueueingHint";

    private final Function<String, Map<String, List<ClusterEventWithHint>>> eventsOfProfile;
    private final Faults faults;

    /**
     * @param eventsOfProfile by profile name, what its plugins registered (by plugin; a null list:
     *     every event); null when the profile is paused, so that its pods wait for it instead
     * @param faults told of each hint that threw, under the queue's lock
     */
    public QueueingHints(Function<String, Map<String, List<ClusterEventWithHint>>> eventsOfProfile, Faults faults) {
        this.eventsOfProfile = eventsOfProfile;
        this.faults = faults;
    }

    public boolean isPodWorthRequeuing(
            QueuedPod qp, String kind, ActionType action, Object oldObject, Object newObject) {
        Set<String> plugins = qp.unschedulablePlugins();
        if (plugins.isEmpty()) {
            return true;
        }
        Map<String, List<ClusterEventWithHint>> events =
                eventsOfProfile.apply(qp.pod().schedulerName());
        if (events == null) {
            return false;
        }
        for (String plugin : plugins) {
            if (!events.containsKey(plugin) || events.get(plugin) == null) {
                return true;
            }
            for (ClusterEventWithHint e : events.get(plugin)) {
                if (e.event().matches(kind, action) && queues(e, plugin, qp, kind, action, oldObject, newObject)) {
                    return true;
                }
            }
        }
        return false;
    }

    private boolean queues(
            ClusterEventWithHint e,
            String plugin,
            QueuedPod qp,
            String kind,
            ActionType action,
            Object oldObject,
            Object newObject) {
        if (e.hint() == null) {
            return true;
        }
        try {
            return e.hint().hint(qp.pod(), oldObject, newObject) == QueueingHint.QUEUE;
        } catch (RuntimeException | LinkageError ex) {
            // toString: a LinkageError's message alone is only a class name
            faults.hintFailed(
                    qp.pod().schedulerName(),
                    plugin,
                    "running the queueing hint of plugin \"" + plugin + "\" for " + kind + " " + action + " of pod "
                            + qp.pod().key() + ": " + ex);
            return true;
        }
    }
}
