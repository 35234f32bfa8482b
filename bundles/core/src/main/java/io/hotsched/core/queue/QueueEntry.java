package io.hotsched.core.queue;

import java.util.Set;

/**
 * A pod of the queue as the shell shows it.
 *
 * @param queue active, backoff, unschedulable, gated or inFlight
 */
public record QueueEntry(
        String podKey, String queue, int attempts, Set<String> unschedulablePlugins, String lastFailure) {}
