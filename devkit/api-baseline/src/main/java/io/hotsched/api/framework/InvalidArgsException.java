package io.hotsched.api.framework;

/**
 * A plugin's configuration arguments are not valid. The message names the field, the value and
 * what would be valid; the framework adds the plugin's name and the configuration file.
 */
public class InvalidArgsException extends Exception {

    private static final long serialVersionUID = 1L;

    private final String field;

    /**
     * @param field the path of the field inside the args, e.g. {@code scoringStrategy.type}
     * @param value the value found
     * @param valid what would be valid, e.g. {@code one of LeastAllocated, MostAllocated}
     */
    public InvalidArgsException(String field, Object value, String valid) {
        super(field + ": invalid value " + quote(value) + ": " + valid);
        this.field = field;
    }

    /** A message of the caller's own, about {@code field}. */
    public InvalidArgsException(String field, String message) {
        super(field + ": " + message);
        this.field = field;
    }

    public String field() {
        return field;
    }

    private static String quote(Object value) {
        return value instanceof String ? "\"" + value + "\"" : String.valueOf(value);
    }
}
