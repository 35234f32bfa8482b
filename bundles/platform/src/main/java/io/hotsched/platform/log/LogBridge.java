package io.hotsched.platform.log;

import java.util.Map;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;
import org.osgi.service.log.LogEntry;
import org.osgi.service.log.LogLevel;
import org.osgi.service.log.LogListener;
import org.osgi.service.log.LogReaderService;
import org.osgi.service.log.LoggerFactory;
import org.osgi.service.log.admin.LoggerAdmin;
import org.osgi.service.log.admin.LoggerContext;
import org.osgi.util.tracker.ServiceTracker;
import org.slf4j.Logger;

/**
 * Forwards every OSGi log entry (FileInstall, SCR, Config Admin, our own platform code) to SLF4J,
 * so that one logging configuration governs the whole process and each entry is one line.
 *
 * <p>Which entries are printed is decided by SLF4J's levels; the OSGi side is opened to INFO so
 * that FileInstall's install/update/uninstall lines reach us.
 */
public final class LogBridge {

    private final BundleContext context;
    private final LogListener listener = this::forward;
    private ServiceTracker<LogReaderService, LogReaderService> readers;
    private ServiceTracker<LoggerAdmin, LoggerAdmin> admins;
    private ServiceTracker<LoggerFactory, LoggerFactory> factories;

    public LogBridge(BundleContext context) {
        this.context = context;
    }

    public void open() {
        admins = new ServiceTracker<>(context, LoggerAdmin.class, null) {
            @Override
            public LoggerAdmin addingService(ServiceReference<LoggerAdmin> reference) {
                LoggerAdmin admin = super.addingService(reference);
                LoggerContext root = admin.getLoggerContext(null);
                root.setLogLevels(Map.of(org.osgi.service.log.Logger.ROOT_LOGGER_NAME, LogLevel.INFO));
                return admin;
            }
        };
        admins.open();
        readers = new ServiceTracker<>(context, LogReaderService.class, null) {
            @Override
            public LogReaderService addingService(ServiceReference<LogReaderService> reference) {
                LogReaderService reader = super.addingService(reference);
                reader.addLogListener(listener);
                return reader;
            }

            @Override
            public void removedService(ServiceReference<LogReaderService> reference, LogReaderService reader) {
                reader.removeLogListener(listener);
                super.removedService(reference, reader);
            }
        };
        readers.open();
        factories = new ServiceTracker<>(context, LoggerFactory.class, null);
        factories.open();
    }

    public void close() {
        readers.close();
        admins.close();
        factories.close();
    }

    /**
     * A logger that writes into the OSGi log (so that log readers, tests among them, see the
     * entry) and falls back to SLF4J while no log service is present.
     */
    public PlatformLogger loggerFor(Bundle bundle, String name) {
        return new PlatformLogger(() -> factories.getService(), bundle, name);
    }

    private void forward(LogEntry entry) {
        Bundle bundle = entry.getBundle();
        String name = bundle == null || bundle.getSymbolicName() == null ? "osgi" : bundle.getSymbolicName();
        Logger out = org.slf4j.LoggerFactory.getLogger(name);
        LogLevel level = LogLines.effectiveLevel(entry.getLoggerName(), entry.getLogLevel());
        Throwable error = entry.getException();
        String text = LogLines.oneLine(entry.getMessage(), error);
        Throwable trace = LogLines.wantsStackTrace(error) ? error : null;
        switch (level) {
            case AUDIT, ERROR -> out.error(text, trace);
            case WARN -> out.warn(text, trace);
            case INFO -> out.info(text, trace);
            case DEBUG -> out.debug(text, trace);
            default -> out.trace(text, trace);
        }
    }
}
