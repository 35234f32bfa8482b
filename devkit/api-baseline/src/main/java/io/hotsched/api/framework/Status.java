package io.hotsched.api.framework;

import java.util.List;
import java.util.Objects;

/**
 * The result of one plugin call: a {@link Code}, the user-visible reasons, an optional cause, and
 * the plugin that set it. Immutable. {@link #SUCCESS} is shared, so a plugin that succeeds
 * allocates nothing.
 *
 * <p>A plugin never sets the plugin name itself: the framework records which plugin returned a
 * rejection ({@link #plugin()}), so that a failure can be explained per plugin.
 */
public final class Status {

    /** The one success status. */
    public static final Status SUCCESS = new Status(Code.SUCCESS, List.of(), null, null);

    /** Skip with no reason, for PreFilter, PreScore and Bind plugins. */
    public static final Status SKIP = new Status(Code.SKIP, List.of(), null, null);

    private final Code code;
    private final List<String> reasons;
    private final Throwable cause;
    private final String plugin;

    private Status(Code code, List<String> reasons, Throwable cause, String plugin) {
        this.code = Objects.requireNonNull(code, "code");
        this.reasons = reasons;
        this.cause = cause;
        this.plugin = plugin;
    }

    /** A status with the given code and reasons (each a user-visible sentence fragment). */
    public static Status of(Code code, String... reasons) {
        if (code == Code.SUCCESS && reasons.length == 0) {
            return SUCCESS;
        }
        return new Status(code, List.of(reasons), null, null);
    }

    /** {@link Code#UNSCHEDULABLE} with the given reasons. */
    public static Status unschedulable(String... reasons) {
        return of(Code.UNSCHEDULABLE, reasons);
    }

    /** {@link Code#UNSCHEDULABLE_AND_UNRESOLVABLE} with the given reasons. */
    public static Status unresolvable(String... reasons) {
        return of(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, reasons);
    }

    /** {@link Code#ERROR} whose only reason is the message of {@code cause}. */
    public static Status error(Throwable cause) {
        String message = cause.getMessage() == null ? cause.getClass().getName() : cause.getMessage();
        return new Status(Code.ERROR, List.of(message), cause, null);
    }

    /** {@link Code#ERROR} with a message. */
    public static Status error(String message) {
        return new Status(Code.ERROR, List.of(message), null, null);
    }

    /** {@link Code#ERROR} with a message and the exception behind it. */
    public static Status error(String message, Throwable cause) {
        return new Status(Code.ERROR, List.of(message), cause, null);
    }

    public Code code() {
        return code;
    }

    public List<String> reasons() {
        return reasons;
    }

    /** The exception behind an {@link Code#ERROR}, if there was one. */
    public Throwable cause() {
        return cause;
    }

    /** The plugin that returned this status, as recorded by the framework; null if not recorded. */
    public String plugin() {
        return plugin;
    }

    public boolean isSuccess() {
        return code == Code.SUCCESS;
    }

    public boolean isSkip() {
        return code == Code.SKIP;
    }

    /** See {@link Code#isRejection()}. */
    public boolean isRejection() {
        return code.isRejection();
    }

    /** The reasons joined with ", ", as upstream's {@code Message()}. */
    public String message() {
        return String.join(", ", reasons);
    }

    /** This status, marked as returned by {@code pluginName}. For the framework's use. */
    public Status withPlugin(String pluginName) {
        if (Objects.equals(pluginName, plugin)) {
            return this;
        }
        return new Status(code, reasons, cause, pluginName);
    }

    /** This status with another code, keeping reasons, cause and plugin. */
    public Status withCode(Code newCode) {
        if (newCode == code) {
            return this;
        }
        return new Status(newCode, reasons, cause, plugin);
    }

    /** A copy whose reasons are replaced, keeping code, cause and plugin. */
    public Status withReasons(List<String> newReasons) {
        return new Status(code, List.copyOf(newReasons), cause, plugin);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Status s && code == s.code && reasons.equals(s.reasons) && Objects.equals(plugin, s.plugin);
    }

    @Override
    public int hashCode() {
        return Objects.hash(code, reasons, plugin);
    }

    @Override
    public String toString() {
        return code + (reasons.isEmpty() ? "" : ": " + message()) + (plugin == null ? "" : " (" + plugin + ")");
    }
}
