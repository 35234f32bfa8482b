package io.hotsched.api.framework;

/** A cluster operation failed; the message says which and why (the API server's answer). */
public class ClusterException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int code;

    /** @param code the HTTP status of the API server's answer, or 0 when there was none */
    public ClusterException(String message, int code, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    public ClusterException(String message, int code) {
        this(message, code, null);
    }

    /** The HTTP status of the API server's answer (404, 409 ...), or 0. */
    public int code() {
        return code;
    }
}
