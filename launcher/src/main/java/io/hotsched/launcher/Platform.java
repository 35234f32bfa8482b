package io.hotsched.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.stream.Stream;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.launch.Framework;
import org.osgi.framework.launch.FrameworkFactory;
import org.osgi.framework.startlevel.BundleStartLevel;
import org.osgi.framework.wiring.BundleRevision;

/**
 * The OSGi framework with the distribution's platform bundles: installs every jar of
 * {@code bundle/} at its start level, starts the framework, stops it with a bounded wait.
 */
final class Platform {

    private final Map<String, String> properties;
    private final Path bundleDir;
    private final StartLevels levels;
    private Framework framework;

    Platform(Map<String, String> properties, Path bundleDir, StartLevels levels) {
        this.properties = properties;
        this.bundleDir = bundleDir;
        this.levels = levels;
    }

    /** Starts the framework and returns the platform bundles that did not become active. */
    List<String> start() throws BundleException, IOException {
        Iterator<FrameworkFactory> factories =
                ServiceLoader.load(FrameworkFactory.class).iterator();
        // The launcher's class path (the embedded API server with its SLF4J and fabric8 client) must
        // stay invisible to bundles: libraries that look up providers through the context class
        // loader (SLF4J, fabric8) would otherwise find the launcher's copies. A loader that sees
        // only the JDK; framework threads inherit it. (null would mean the application loader.)
        Thread.currentThread()
                .setContextClassLoader(
                        new ClassLoader("hotsched-bundles-context", ClassLoader.getPlatformClassLoader()) {});
        if (!factories.hasNext()) {
            throw new IllegalStateException("no OSGi framework on the class path (lib/ is incomplete)");
        }
        framework = factories.next().newFramework(properties);
        framework.init();
        BundleContext context = framework.getBundleContext();
        List<Bundle> installed = new ArrayList<>();
        for (Path jar : jars()) {
            Bundle bundle;
            try {
                bundle = context.installBundle(jar.toUri().toString());
            } catch (BundleException e) {
                throw new BundleException("cannot install platform bundle " + jar + ": " + e.getMessage(), e);
            }
            bundle.adapt(BundleStartLevel.class)
                    .setStartLevel(levels.levelOf(String.valueOf(bundle.getSymbolicName())));
            installed.add(bundle);
        }
        for (Bundle bundle : installed) {
            if (!isFragment(bundle)) {
                // before framework start this only marks the bundle; it starts when its level is reached
                bundle.start();
            }
        }
        framework.start();
        List<String> inactive = new ArrayList<>();
        for (Bundle bundle : installed) {
            if (!isFragment(bundle) && bundle.getState() != Bundle.ACTIVE) {
                inactive.add(bundle.getSymbolicName() + " " + bundle.getVersion() + " (" + bundle.getLocation() + ")");
            }
        }
        return inactive;
    }

    /** Blocks until the framework has stopped, for whatever reason (shell, signal, stop 0). */
    void awaitStop() throws InterruptedException {
        while (true) {
            FrameworkEvent event = framework.waitForStop(0);
            if (event.getType() != FrameworkEvent.STOPPED_UPDATE) {
                return;
            }
            // the system bundle was updated (a framework restart): keep waiting on the new run
        }
    }

    /** Asks the framework to stop and waits at most {@code timeout}; true when it stopped. */
    boolean stop(Duration timeout) throws InterruptedException {
        if (framework == null) {
            return true;
        }
        try {
            framework.stop();
        } catch (BundleException e) {
            return false;
        }
        FrameworkEvent event = framework.waitForStop(Math.max(1, timeout.toMillis()));
        return event.getType() != FrameworkEvent.WAIT_TIMEDOUT;
    }

    /** The folder FileInstall watches for plugins, as the framework properties name it. */
    String deployDir() {
        return properties.getOrDefault("hotsched.home", "") + "/deploy";
    }

    boolean running() {
        return framework != null && (framework.getState() & (Bundle.ACTIVE | Bundle.STARTING)) != 0;
    }

    private List<Path> jars() throws IOException {
        if (!Files.isDirectory(bundleDir)) {
            throw new IOException("no bundle folder at " + bundleDir);
        }
        try (Stream<Path> files = Files.list(bundleDir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".jar"))
                    .sorted()
                    .toList();
        }
    }

    private static boolean isFragment(Bundle bundle) {
        BundleRevision revision = bundle.adapt(BundleRevision.class);
        return revision != null && (revision.getTypes() & BundleRevision.TYPE_FRAGMENT) != 0;
    }
}
