package io.hotsched.platform.log;

import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.osgi.framework.Bundle;
import org.osgi.service.log.Logger;
import org.osgi.service.log.LoggerFactory;

/** Logs into the OSGi log service when there is one, else straight to SLF4J. */
public final class PlatformLogger {

    private final Supplier<LoggerFactory> factory;
    private final Bundle bundle;
    private final String name;

    PlatformLogger(Supplier<LoggerFactory> factory, Bundle bundle, String name) {
        this.factory = factory;
        this.bundle = bundle;
        this.name = name;
    }

    public void error(String message) {
        log(message, Logger::error, org.slf4j.Logger::error);
    }

    public void info(String message) {
        log(message, Logger::info, org.slf4j.Logger::info);
    }

    private void log(String message, BiConsumer<Logger, String> osgi, BiConsumer<org.slf4j.Logger, String> direct) {
        LoggerFactory f = factory.get();
        if (f != null) {
            osgi.accept(f.getLogger(bundle, name, Logger.class), message);
        } else {
            direct.accept(org.slf4j.LoggerFactory.getLogger(name), message);
        }
    }
}
