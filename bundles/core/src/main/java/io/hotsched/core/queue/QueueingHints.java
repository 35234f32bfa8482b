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
 */
public final class QueueingHints {

    private final Function<String, Map<String, List<ClusterEventWithHint>>> eventsOfProfile;

    /**
     * @param eventsOfProfile by profile name, what its plugins registered (by plugin; a null list:
     *     every event); null when the profile is paused, so that its pods wait for it instead
     */
    public QueueingHints(Function<String, Map<String, List<ClusterEventWithHint>>> eventsOfProfile) {
        this.eventsOfProfile = eventsOfProfile;
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
                if (e.event().matches(kind, action) && queues(e, qp, oldObject, newObject)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean queues(ClusterEventWithHint e, QueuedPod qp, Object oldObject, Object newObject) {
        if (e.hint() == null) {
            return true;
        }
        try {
            return e.hint().hint(qp.pod(), oldObject, newObject) == QueueingHint.QUEUE;
        } catch (RuntimeException ex) {
            return true;
        }
    }
}
