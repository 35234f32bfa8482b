package io.hotsched.bench.perf;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * The plugin-swap workload's swaps: every {@code period} the default plugins' jar in the
 * scheduler's {@code deploy/} is upgraded to the same jar with a higher Bundle-Version while pods
 * are scheduled, as a user would do it, one of two ways:
 * <ul>
 * <li>in place: the file is replaced (one rename), and FileInstall updates the bundle: the old
 * revision stops before the new one starts, so the profile pauses in between;</li>
 * <li>side by side: the new version goes in as a file of its own, the profile switches to it
 * when it arrives (the highest version serves), and the old file is deleted half a period later.</li>
 * </ul>
 */
final class BundleSwapper implements AutoCloseable {

    private final Path jar;
    private final byte[] original;
    private final boolean sideBySide;
    private final long periodMillis;
    private Path current;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final AtomicInteger swaps = new AtomicInteger();

    BundleSwapper(Path deploy, String fileName, long periodMillis, boolean sideBySide) throws IOException {
        this.jar = deploy.resolve(fileName);
        this.original = Files.readAllBytes(jar);
        this.sideBySide = sideBySide;
        this.periodMillis = periodMillis;
        this.current = jar;
        timer.scheduleAtFixedRate(this::swap, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
    }

    int swaps() {
        return swaps.get();
    }

    private void swap() {
        try {
            int n = swaps.incrementAndGet();
            Path tmp = jar.resolveSibling(".swap-" + n + ".tmp");
            Files.write(tmp, withVersion(original, "0.1." + n));
            Path target = sideBySide ? jar.resolveSibling("io.hotsched.plugins.defaults-0.1." + n + ".jar") : jar;
            // one rename, so FileInstall never reads half a jar
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            if (sideBySide) {
                Path old = current;
                current = target;
                timer.schedule(
                        () -> {
                            try {
                                Files.deleteIfExists(old);
                            } catch (IOException e) {
                                System.err.println("removing " + old + " failed: " + e);
                            }
                        },
                        periodMillis / 2,
                        TimeUnit.MILLISECONDS);
            }
        } catch (IOException e) {
            System.err.println("swap failed: " + e);
        }
    }

    static byte[] withVersion(byte[] jarBytes, String version) throws IOException {
        try (JarInputStream in = new JarInputStream(new ByteArrayInputStream(jarBytes))) {
            Manifest m = new Manifest(in.getManifest());
            m.getMainAttributes().putValue("Bundle-Version", version);
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(jarBytes.length + 256);
            try (JarOutputStream out = new JarOutputStream(bytes, m)) {
                for (JarEntry e; (e = in.getNextJarEntry()) != null; ) {
                    out.putNextEntry(new JarEntry(e.getName()));
                    in.transferTo(out);
                    out.closeEntry();
                }
            }
            return bytes.toByteArray();
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
