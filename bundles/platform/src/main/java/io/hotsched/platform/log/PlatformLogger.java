package io.hotsched.platform.log;

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
        LoggerFactory f = factory.get();
        if (f != null) {
            f.getLogger(bundle, name, Logger.class).error(message);
        } else {
            org.slf4j.LoggerFactory.getLogger(name).error(message);
        }
    }

    public void info(String message) {
        LoggerFactory f = factory.get();
        if (f != null) {
            f.getLogger(bundle, name, Logger.class).info(message);
        } else {
            org.slf4j.LoggerFactory.getLogger(name).info(message);
        }
    }
}
