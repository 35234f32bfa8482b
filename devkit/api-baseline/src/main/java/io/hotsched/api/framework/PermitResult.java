package io.hotsched.api.framework;

import java.time.Duration;

/**
 * What a Permit plugin returns: Success (allow), a rejection, or {@link Code#WAIT} with how long
 * the pod may wait for {@link WaitingPod#allow} (capped at 15 minutes).
 */
public record PermitResult(Status status, Duration timeout) {

    public static final PermitResult ALLOW = new PermitResult(Status.SUCCESS, Duration.ZERO);

    public static PermitResult waitFor(Duration timeout) {
        return new PermitResult(Status.of(Code.WAIT), timeout);
    }

    public static PermitResult reject(Status status) {
        return new PermitResult(status, Duration.ZERO);
    }
}
