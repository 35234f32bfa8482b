package io.hotsched.core.osgi;

import static io.hotsched.core.support.SchedulerFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.core.osgi.testbundle.leaky.LeakyActivator;
import io.hotsched.core.osgi.testbundle.tidy.TidyActivator;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.apache.felix.framework.FrameworkFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;
import org.osgi.framework.Constants;
import org.osgi.framework.launch.Framework;

/** In a real Felix: a bundle that leaves threads running when it stops is reported by name; one that ends its thread is not. */
class BundleThreadsTest {

    @TempDir
    Path storage;

    private Framework framework;
    private final List<String> reports = new CopyOnWriteArrayList<>();
    private final BundleThreads threads = new BundleThreads(100, reports::add);

    @AfterEach
    void stop() throws Exception {
        threads.close();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("leaky-")) {
                t.interrupt();
                t.join();
            }
        }
        if (framework != null) {
            framework.stop();
            framework.waitForStop(10_000);
        }
    }

    /** A bundle of {@code activator}'s package (its classes named), started by {@code activator}. */
    private static InputStream bundle(String symbolicName, Class<?> activator, String... classes) throws IOException {
        Manifest m = new Manifest();
        Attributes a = m.getMainAttributes();
        a.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        a.putValue(Constants.BUNDLE_MANIFESTVERSION, "2");
        a.putValue(Constants.BUNDLE_SYMBOLICNAME, symbolicName);
        a.putValue(Constants.BUNDLE_VERSION, "1.0.0");
        a.putValue(Constants.BUNDLE_ACTIVATOR, activator.getName());
        a.putValue(Constants.IMPORT_PACKAGE, "org.osgi.framework");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JarOutputStream jar = new JarOutputStream(bytes, m)) {
            for (String c : classes) {
                String path = activator.getPackageName().replace('.', '/') + "/" + c + ".class";
                jar.putNextEntry(new JarEntry(path));
                try (InputStream in = activator.getClassLoader().getResourceAsStream(path)) {
                    in.transferTo(jar);
                }
            }
        }
        return new ByteArrayInputStream(bytes.toByteArray());
    }

    @Test
    void threadsLeftRunningByAStoppedBundleAreReportedWithTheBundleAndThreadNames() throws Exception {
        framework = new FrameworkFactory()
                .newFramework(Map.of(
                        Constants.FRAMEWORK_STORAGE,
                        storage.toString(),
                        Constants.FRAMEWORK_STORAGE_CLEAN,
                        Constants.FRAMEWORK_STORAGE_CLEAN_ONFIRSTINIT));
        framework.start();
        framework.getBundleContext().addBundleListener(threads);
        Bundle tidy = framework
                .getBundleContext()
                .installBundle("tidy", bundle("tidy.bundle", TidyActivator.class, "TidyActivator"));
        Bundle leaky = framework
                .getBundleContext()
                .installBundle(
                        "leaky",
                        bundle("leaky.bundle", LeakyActivator.class, "LeakyActivator", "LeakyActivator$Worker"));
        tidy.start();
        leaky.start();

        tidy.stop();
        leaky.stop();
        // the tidy bundle's check, if it had one, was due before the leaky one's
        await("the leaky bundle reported", () -> !reports.isEmpty());
        assertEquals(1, reports.size(), reports.toString());
        String report = reports.get(0);
        assertTrue(
                report.matches(
                        "Bundle leaky.bundle 1.0.0 \\(id \\d+\\) stopped 100ms ago but 2 thread\\(s\\) it started "
                                + "still run: (leaky-runnable, leaky-subclass|leaky-subclass, leaky-runnable)\\. .*"),
                report);
        assertEquals(
                List.of("leaky.bundle 1.0.0"),
                List.copyOf(threads.stillRunning().keySet()));
        assertEquals(2, threads.stillRunning().get("leaky.bundle 1.0.0").size());

        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("leaky-")) {
                t.interrupt();
                t.join();
            }
        }
        assertTrue(threads.stillRunning().isEmpty(), threads.stillRunning().toString());
    }
}
