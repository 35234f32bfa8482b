package io.hotsched.itests;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;
import javax.inject.Inject;
import org.junit.After;
import org.junit.Before;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleListener;
import org.osgi.framework.FrameworkListener;
import org.osgi.framework.ServiceListener;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.Version;
import org.osgi.framework.wiring.BundleRevision;
import org.osgi.service.log.LogReaderService;
import org.osgi.service.log.LoggerFactory;

/**
 * What every deploy/ scenario needs: the platform booted as the distribution boots it, the
 * watched folder, a capture of the log, and waiting for conditions with a generous bound (the
 * bound only stops a broken run; the time taken is printed, never asserted). A condition is
 * checked again on every bundle, service and framework event and every log entry, and at the
 * latest every {@link #RECHECK}; nothing here waits for a fixed time.
 */
public abstract class DeployTestSupport {

    /** Long enough for a slow CI machine; FileInstall needs about two polls of one second. */
    static final Duration WAIT = Duration.ofSeconds(20);

    /** How long {@link #await} waits for an event before it checks again anyway (cluster and scheduler send none). */
    static final Duration RECHECK = Duration.ofMillis(50);

    private static final AtomicInteger MARKERS = new AtomicInteger();

    @Inject
    protected BundleContext context;

    @Inject
    protected LogReaderService logReader;

    protected LogCapture log;

    /** Counts the events that may have changed what an {@link #await} probe sees. */
    private final Object changes = new Object();

    private long changeCount;

    private final BundleListener bundleEvents = e -> changed();
    private final ServiceListener serviceEvents = e -> changed();
    private final FrameworkListener frameworkEvents = e -> changed();

    @Configuration
    public Option[] configuration() throws IOException {
        return PlatformOptions.platform();
    }

    @Before
    public void captureLog() {
        log = new LogCapture(logReader, this::changed);
        context.addBundleListener(bundleEvents);
        context.addServiceListener(serviceEvents);
        context.addFrameworkListener(frameworkEvents);
    }

    @After
    public void stopCapture() {
        context.removeFrameworkListener(frameworkEvents);
        context.removeServiceListener(serviceEvents);
        context.removeBundleListener(bundleEvents);
        log.close();
    }

    private void changed() {
        synchronized (changes) {
            changeCount++;
            changes.notifyAll();
        }
    }

    protected Path deployDir() {
        return Path.of(context.getProperty(PlatformOptions.HOME), "deploy");
    }

    /** Writes under a hidden temporary name, then renames into place: the way the README says to. */
    protected Path drop(String name, byte[] content) throws IOException {
        Path tmp = deployDir().resolve("." + name + ".tmp");
        Files.write(tmp, content);
        Path target = deployDir().resolve(name);
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return target;
    }

    /**
     * The shipped bundles of kube-scheduler's default profile: the default plugins and
     * DynamicResources (a bundle of its own), as the distribution's deploy/ has them.
     */
    protected void dropDefaultPlugins() throws IOException {
        drop("io.hotsched.plugins.defaults.jar", shipped("io.hotsched.plugins.defaults-"));
        dropDynamicResources();
    }

    /** The shipped DynamicResources bundle, which the default profile needs beside the default plugins. */
    protected void dropDynamicResources() throws IOException {
        drop("io.hotsched.plugin.dynamicresources.jar", shipped("io.hotsched.plugin.dynamicresources-"));
    }

    protected List<Bundle> bundlesNamed(String symbolicName) {
        List<Bundle> found = new ArrayList<>();
        for (Bundle b : context.getBundles()) {
            if (symbolicName.equals(b.getSymbolicName())) {
                found.add(b);
            }
        }
        return found;
    }

    protected Optional<Bundle> bundle(String symbolicName, String version) {
        return bundlesNamed(symbolicName).stream()
                .filter(b -> b.getVersion().equals(Version.parseVersion(version)))
                .findFirst();
    }

    protected Bundle awaitActive(String symbolicName, String version) {
        return await(
                symbolicName + " " + version + " ACTIVE",
                () -> bundle(symbolicName, version)
                        .filter(b -> b.getState() == Bundle.ACTIVE)
                        .orElse(null));
    }

    protected <T> T await(String what, Supplier<T> probe) {
        return await(what, WAIT, probe);
    }

    protected <T> T await(String what, Duration wait, Supplier<T> probe) {
        long start = System.nanoTime();
        long deadline = start + wait.toNanos();
        while (true) {
            long seen;
            synchronized (changes) {
                seen = changeCount;
            }
            T value = probe.get();
            if (value != null && !Boolean.FALSE.equals(value)) {
                System.out.printf("  %s after %d ms%n", what, (System.nanoTime() - start) / 1_000_000);
                return value;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            synchronized (changes) {
                if (changeCount == seen) {
                    try {
                        TimeUnit.NANOSECONDS.timedWait(changes, Math.min(left, RECHECK.toNanos()));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException(e);
                    }
                }
            }
        }
        fail("not seen within " + wait.toSeconds() + " s: " + what + "\nlog:\n"
                + String.join("\n", log.all().stream().map(Object::toString).toList()));
        return null;
    }

    /**
     * Returns once every entry written to the OSGi log before this call has reached {@link #log}:
     * writes a line of its own and waits for it (the log service hands entries to its listeners in
     * order, on a thread of its own).
     */
    protected void flushLog() {
        String line = "itest log flush " + UUID.randomUUID();
        ServiceReference<LoggerFactory> ref = context.getServiceReference(LoggerFactory.class);
        LoggerFactory factory = context.getService(ref);
        try {
            factory.getLogger(getClass()).info(line);
        } finally {
            context.ungetService(ref);
        }
        await("the log flushed", () -> log.all().stream().anyMatch(l -> l.text().equals(line)));
    }

    /**
     * Proves that FileInstall has handled deploy/ as it is now: drops a marker bundle and waits for
     * it to run, then flushes the log. FileInstall handles what one scan found in one pass (each
     * file refused or installed, then the new bundles started), and finds a file on the scan after
     * it stopped changing; so with the marker running, every file that was in place before it has
     * been refused or installed, as has any file of an earlier pass that it tries again, and the log
     * says so. (Not for a bundle that fails to start: the marker changes the set of bundles whose
     * start FileInstall retries, and it logs the failure again then.)
     */
    protected Bundle awaitScannedPast() throws IOException {
        int n = MARKERS.incrementAndGet();
        String name = "io.hotsched.itest.scanmarker" + n;
        drop("scan-marker-" + n + ".jar", TestBundles.bundle(name, "1.0.0"));
        Bundle marker = awaitActive(name, "1.0.0");
        flushLog();
        return marker;
    }

    /** Every bundle the distribution ships is still active (fragments resolved). */
    protected void assertPlatformRunning() {
        for (Bundle b : context.getBundles()) {
            if (b.getLocation().contains("/deploy/") || b.getBundleId() == 0) {
                continue;
            }
            BundleRevision rev = b.adapt(BundleRevision.class);
            boolean fragment = rev != null && (rev.getTypes() & BundleRevision.TYPE_FRAGMENT) != 0;
            int expected = fragment ? Bundle.RESOLVED : Bundle.ACTIVE;
            assertEquals("state of " + b.getSymbolicName(), expected, b.getState());
        }
        assertTrue("framework active", context.getBundle(0).getState() == Bundle.ACTIVE);
    }

    /** The bytes of the distribution's deploy/ jar whose name starts with {@code prefix}. */
    protected static byte[] shipped(String prefix) throws IOException {
        try (Stream<Path> jars =
                Files.list(Path.of(System.getProperty("hotsched.dist")).resolve("deploy"))) {
            Path jar = jars.filter(p -> p.getFileName().toString().startsWith(prefix))
                    .findFirst()
                    .orElseThrow(() -> new IOException("no " + prefix + " jar in the distribution's deploy/"));
            return Files.readAllBytes(jar);
        }
    }

    /** Runs a Gogo command (as typed in the shell) and returns what it printed and returned. */
    protected String sh(String command) {
        org.apache.felix.service.command.CommandProcessor shell = context.getService(
                context.getServiceReference(org.apache.felix.service.command.CommandProcessor.class));
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.PrintStream ps = new java.io.PrintStream(out, true);
        org.apache.felix.service.command.CommandSession session = shell.createSession(System.in, ps, ps);
        try {
            Object result = session.execute(command);
            return out + (result == null ? "" : String.valueOf(result));
        } catch (Exception e) {
            throw new IllegalStateException(command + ": " + e, e);
        } finally {
            session.close();
        }
    }

    /** Replaces etc/scheduler.yaml in one rename, as an editor saving it would. */
    protected void writeSchedulerYaml(String yaml) throws IOException {
        Path file = deployDir().getParent().resolve("etc").resolve("scheduler.yaml");
        Path tmp = file.resolveSibling(".scheduler.yaml.tmp");
        Files.writeString(tmp, yaml);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
