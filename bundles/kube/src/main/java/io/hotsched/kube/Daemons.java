package io.hotsched.kube;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/** The bundle's background threads: daemons, so that a forgotten one never keeps the JVM up. */
public final class Daemons {

    private Daemons() {}

    /** A scheduled executor of one daemon thread named {@code name}. */
    public static ScheduledExecutorService singleThread(String name) {
        return Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }
}
