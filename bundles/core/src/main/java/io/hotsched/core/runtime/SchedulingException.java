package io.hotsched.core.runtime;

import io.hotsched.api.framework.Status;

/** A scheduling attempt failed with an error (not a rejection): the pod is retried with backoff. */
public final class SchedulingException extends Exception {

    private static final long serialVersionUID = 1L;

    private final transient Status status;

    public SchedulingException(Status status) {
        super(status.message(), status.cause(), false, false);
        this.status = status;
    }

    public Status status() {
        return status;
    }
}
