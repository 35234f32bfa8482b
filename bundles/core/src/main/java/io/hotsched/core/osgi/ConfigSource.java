package io.hotsched.core.osgi;

import io.hotsched.core.config.ConfigException;
import io.hotsched.core.config.ConfigParser;
import io.hotsched.core.config.SchedulerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.osgi.framework.BundleContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler's configuration file ({@code configFile}, else {@code -Dhotsched.config}, else
 * {@code etc/scheduler.yaml}) and what became of its last load, for {@code sched:status}. A file
 * that cannot be used at start leaves no profile scheduling, never a guessed one.
 */
final class ConfigSource {

    private static final Logger LOG = LoggerFactory.getLogger(ConfigSource.class);

    private final Path file;
    private volatile String state = "not loaded";

    ConfigSource(BundleContext context, SchedulerSettings settings) {
        this.file = locate(context, settings);
    }

    private static Path locate(BundleContext context, SchedulerSettings settings) {
        if (!settings.configFile().isBlank()) {
            return Path.of(settings.configFile());
        }
        String fromCommandLine = context.getProperty("hotsched.config");
        if (fromCommandLine != null && !fromCommandLine.isBlank()) {
            return Path.of(fromCommandLine);
        }
        String home = context.getProperty("hotsched.home");
        return Path.of(home == null ? "." : home, "etc", "scheduler.yaml");
    }

    Path file() {
        return file;
    }

    String state() {
        return state;
    }

    /** The configuration to start with: the file's, the default profile without a file, none when refused. */
    SchedulerConfig initial() {
        if (!Files.exists(file)) {
            LOG.info("No {}: scheduling with the default profile (default-scheduler)", file);
            state = "default profile (no " + file + ")";
            return ConfigParser.defaults(file.toString());
        }
        try {
            return load();
        } catch (ConfigException e) {
            return refusedAtStart(e);
        }
    }

    /** The file's configuration, read again; the state says it was applied. */
    SchedulerConfig load() throws ConfigException {
        SchedulerConfig c = ConfigParser.load(file);
        state = "applied " + file;
        return c;
    }

    /** The configuration could not be used at start: no profile schedules until it is fixed. */
    SchedulerConfig refusedAtStart(ConfigException e) {
        LOG.error(
                "The configuration in {} cannot be used, so no profile schedules until it is fixed:\n{}",
                file,
                e.getMessage());
        state = "refused: " + e.getMessage();
        return new SchedulerConfig(file.toString(), 16, 0, 1, 10, List.of(), List.of());
    }

    /** A change was refused; the last good configuration keeps running. Returns the message to show. */
    String refusedChange(ConfigException e) {
        String msg = "Refused the configuration in " + file + "; the last good configuration keeps running:\n"
                + e.getMessage();
        LOG.error(msg);
        state = "last change refused: " + e.getMessage();
        return msg;
    }
}
