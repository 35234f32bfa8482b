package io.hotsched.itests;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.osgi.service.log.LogEntry;
import org.osgi.service.log.LogLevel;
import org.osgi.service.log.LogListener;
import org.osgi.service.log.LogReaderService;

/** Records what the platform writes to the OSGi log (which the console shows through SLF4J). */
final class LogCapture implements LogListener, AutoCloseable {

    record Line(LogLevel level, String bundle, String text) {
        @Override
        public String toString() {
            return level + " " + bundle + " - " + text;
        }
    }

    private final LogReaderService reader;
    private final List<Line> lines = new CopyOnWriteArrayList<>();
    private final Runnable onLine;

    /** @param onLine told after each line is recorded */
    LogCapture(LogReaderService reader, Runnable onLine) {
        this.reader = reader;
        this.onLine = onLine;
        reader.addLogListener(this);
    }

    @Override
    public void logged(LogEntry entry) {
        String text = entry.getMessage()
                + (entry.getException() == null
                        ? ""
                        : ": " + entry.getException().getMessage());
        lines.add(new Line(
                entry.getLogLevel(),
                entry.getBundle() == null ? "" : entry.getBundle().getSymbolicName(),
                text));
        onLine.run();
    }

    /** Warnings and errors whose text mentions {@code word}. */
    List<Line> problemsMentioning(String word) {
        return lines.stream()
                .filter(l -> l.level() == LogLevel.ERROR || l.level() == LogLevel.WARN)
                .filter(l -> l.text().contains(word))
                .collect(Collectors.toList());
    }

    List<Line> all() {
        return List.copyOf(lines);
    }

    @Override
    public void close() {
        reader.removeLogListener(this);
    }
}
