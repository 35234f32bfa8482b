package io.hotsched.platform.trust;

/** Why a jar is not trusted to run in the scheduler, in words a log line, a status and an Event carry. */
public final class Untrusted extends Exception {

    private static final long serialVersionUID = 1L;

    public Untrusted(String reason) {
        super(reason, null, false, false);
    }
}
