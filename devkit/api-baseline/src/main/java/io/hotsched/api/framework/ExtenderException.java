package io.hotsched.api.framework;

/**
 * A scheduler extender call failed: it could not be reached, timed out, answered with an error or
 * with something that does not fit the request. The message names the extender and the verb.
 *
 * @since 1.4
 */
public class ExtenderException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ExtenderException(String message) {
        super(message);
    }

    public ExtenderException(String message, Throwable cause) {
        super(message, cause);
    }
}
