package io.hotsched.api.framework;

import java.util.List;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Implemented by a plugin that can reject pods (PreEnqueue, PreFilter, Filter, Reserve, Permit):
 * the cluster events after which a pod it rejected may fit. A pod rejected by several plugins is
 * moved back when any of their events happens. A rejecting plugin without this interface gets
 * every event.
 */
@ConsumerType
public interface EnqueueExtensions {

    /** Called once when the plugin instance is installed in a framework; the result must not change. */
    List<ClusterEventWithHint> eventsToRegister();
}
