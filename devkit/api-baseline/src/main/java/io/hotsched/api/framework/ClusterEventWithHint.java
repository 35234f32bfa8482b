package io.hotsched.api.framework;

/**
 * A cluster event a plugin registers, with an optional hint function that refines it per pod;
 * without one, every matching event moves the pods the plugin rejected.
 */
public record ClusterEventWithHint(ClusterEvent event, QueueingHintFunction hint) {

    public static ClusterEventWithHint of(ClusterEvent event) {
        return new ClusterEventWithHint(event, null);
    }
}
