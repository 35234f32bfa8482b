package io.hotsched.platform.log;

import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.osgi.service.log.Logger;
import org.osgi.service.log.LoggerFactory;

/** A {@link PlatformLogger} whose lines land in a list, {@code "ERROR message"}: what a user reads in the log. */
public final class RecordingLog {

    public final List<String> lines = new CopyOnWriteArrayList<>();

    public PlatformLogger logger() {
        Logger logger = (Logger) Proxy.newProxyInstance(
                Logger.class.getClassLoader(), new Class<?>[] {Logger.class}, (proxy, method, args) -> {
                    if (args != null && args.length == 1 && args[0] instanceof String message) {
                        lines.add(method.getName().toUpperCase(java.util.Locale.ROOT) + " " + message);
                    }
                    return null;
                });
        LoggerFactory factory = (LoggerFactory) Proxy.newProxyInstance(
                LoggerFactory.class.getClassLoader(),
                new Class<?>[] {LoggerFactory.class},
                (proxy, method, args) -> method.getName().equals("getLogger") ? logger : null);
        return new PlatformLogger(() -> factory, null, "test");
    }
}
