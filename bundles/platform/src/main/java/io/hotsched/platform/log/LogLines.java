package io.hotsched.platform.log;

import org.osgi.framework.BundleException;
import org.osgi.service.log.LogLevel;

/** How an OSGi log entry becomes one readable line. Pure functions. */
public final class LogLines {

    private static final String FELIX_WRAPPER = "org.apache.felix.log.LogException";

    private LogLines() {}

    /**
     * The message followed by the chain of causes' messages, on one line. Framework and
     * FileInstall failures carry their whole meaning in the messages, so a stack trace adds nothing
     * for the user.
     */
    public static String oneLine(String message, Throwable error) {
        StringBuilder line = new StringBuilder(message == null ? "" : message.strip());
        String previous = null;
        for (Throwable t = error; t != null && t != t.getCause(); t = t.getCause()) {
            String text = messageOf(t);
            if (!text.equals(previous) && !line.toString().endsWith(text)) {
                line.append(line.length() == 0 ? "" : ": ").append(text);
            }
            previous = text;
        }
        return line.toString().replaceAll("\\s*\\R\\s*", " ");
    }

    /** Stack traces are kept for real programming errors, not for lifecycle refusals. */
    public static boolean wantsStackTrace(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (!isRefusal(originalClassName(t))) {
                return true;
            }
            if (t == t.getCause()) {
                break;
            }
        }
        return false;
    }

    private static boolean isRefusal(String className) {
        return className.equals(BundleException.class.getName())
                || className.startsWith("java.io.")
                || className.startsWith("java.util.zip.")
                || className.startsWith("java.util.jar.");
    }

    /**
     * The Felix log service hands listeners a wrapper (so that no class of the logging bundle is
     * kept alive) whose message starts with the original class name; see through it.
     */
    static String originalClassName(Throwable t) {
        if (t.getClass().getName().equals(FELIX_WRAPPER)) {
            String m = String.valueOf(t.getMessage());
            int colon = m.indexOf(": ");
            return colon > 0 ? m.substring(0, colon) : m;
        }
        return t.getClass().getName();
    }

    private static String messageOf(Throwable t) {
        String m = t.getMessage();
        if (t.getClass().getName().equals(FELIX_WRAPPER) && m != null) {
            int colon = m.indexOf(": ");
            m = colon > 0 ? m.substring(colon + 2) : null;
        }
        return m == null ? originalClassName(t).substring(originalClassName(t).lastIndexOf('.') + 1) : m.strip();
    }

    /**
     * The framework's event entries (every bundle and service event) are noise at INFO; they are
     * kept at DEBUG unless they report a failure.
     */
    public static LogLevel effectiveLevel(String loggerName, LogLevel level) {
        if (loggerName != null
                && loggerName.startsWith("Events.")
                && level.implies(LogLevel.INFO)
                && !LogLevel.WARN.implies(level)) {
            return LogLevel.DEBUG;
        }
        return level;
    }
}
