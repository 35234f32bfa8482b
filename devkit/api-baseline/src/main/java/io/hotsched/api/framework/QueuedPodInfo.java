package io.hotsched.api.framework;

import java.time.Instant;

/**
 * A pod in the scheduling queue.
 *
 * @param pod the pod
 * @param timestamp when the pod was last added to the queue (upstream's queue timestamp)
 * @param attempts how many scheduling attempts it has had
 * @param initialAttempt when it was first popped for scheduling, or null
 */
public record QueuedPodInfo(PodInfo pod, Instant timestamp, int attempts, Instant initialAttempt) {}
