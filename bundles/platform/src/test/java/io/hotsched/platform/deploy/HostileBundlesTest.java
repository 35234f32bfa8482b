package io.hotsched.platform.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.platform.log.RecordingLog;
import io.hotsched.testing.TestSigners;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 26's hostile bundles that no framework should install, each refused by the deploy/ guard
 * with the one line a user reads, naming the file and what is wrong; nothing reaches FileInstall.
 * The same check ({@link BundleFileCheck}) refuses them for plugin delivery through the API.
 * docs/reliability.md lists these rows with their messages.
 */
class HostileBundlesTest {

    static final String PASSWORD = "test-pass";
    static final String TAIL = ". Nothing was installed; fix the file and it is picked up again.";

    @TempDir
    static Path dir;

    static TestSigners signers;

    @BeforeAll
    static void keys() throws IOException {
        signers = TestSigners.create(dir.resolve("keys"), PASSWORD, "ci");
        Files.copy(signers.truststore("ci"), dir.resolve("trust.p12"));
    }

    @Test
    void aZipSlipEntry() throws IOException {
        File jar = write("slip.jar", bundle(Map.of(), "../../etc/cron.d/evil"));
        assertRefused(
                jar,
                "entry ../../etc/cron.d/evil names a path outside the jar (.. or a leading /): a zip slip, which would"
                        + " write outside the bundle cache when unpacked");
    }

    @Test
    void anAbsoluteEntry() throws IOException {
        File jar = write("absolute.jar", bundle(Map.of(), "/tmp/evil"));
        assertRefused(
                jar,
                "entry /tmp/evil names a path outside the jar (.. or a leading /): a zip slip, which would write"
                        + " outside the bundle cache when unpacked");
    }

    @Test
    void aHugeManifest() throws IOException {
        File jar = write("huge.jar", bundle(Map.of("X-Padding", "x".repeat(2 * 1024 * 1024)), "io/acme/a.txt"));
        assertRefused(jar, "the manifest is larger than 1048576 bytes, far past any bundle's; it is not read");
    }

    @Test
    void aBundleThatExportsTheApiPackage() throws IOException {
        File jar = write(
                "api-copy.jar",
                bundle(
                        Map.of(
                                "Export-Package",
                                "io.acme.fit;version=\"1.0\",io.hotsched.api.framework;version=\"9.0\""),
                        "io/acme/a.txt"));
        assertRefused(
                jar,
                "io.acme.fit exports io.hotsched.api.framework, a package of the scheduler's API, which only"
                        + " io.hotsched.api may export: a second copy would split the plugins between two APIs;"
                        + " import the package instead");
    }

    @Test
    void theApiBundleItselfMayExportIt() throws IOException {
        Manifest m = manifest(Map.of("Export-Package", "io.hotsched.api.framework;version=\"1.0\""));
        m.getMainAttributes().putValue("Bundle-SymbolicName", "io.hotsched.api");
        File jar = write("api.jar", jar(m, "io/hotsched/api/framework/x.txt"));
        assertEquals(java.util.Optional.empty(), BundleFileCheck.problem(jar));
    }

    @Test
    void aSignedJarWithAnEntryChangedAfterSigning() throws Exception {
        byte[] signed = signers.sign(bundle(Map.of(), "io/acme/a.txt"), "ci");
        File jar = write("tampered.jar", rewrite(signed, "io/acme/a.txt", new byte[] {'y'}));
        assertRefusedUnderPolicy(
                jar, "the signature does not match entry io/acme/a.txt: SHA-256 digest error for io/acme/a.txt");
    }

    @Test
    void aSignedJarWithAnEntryAddedAfterSigning() throws Exception {
        byte[] signed = signers.sign(bundle(Map.of(), "io/acme/a.txt"), "ci");
        File jar = write("added.jar", rewrite(signed, "io/acme/b.class", new byte[] {1, 2}));
        assertRefusedUnderPolicy(jar, "entry io/acme/b.class is not signed (added after signing?)");
    }

    /** Refused with the policy off: the file's own fault, whatever the signature rules. */
    private static void assertRefused(File jar, String reason) {
        RecordingLog log = new RecordingLog();
        DeployGuard guard = new DeployGuard(log.logger(), new DeploySignatures(dir.resolve("absent.cfg"), k -> null));
        assertRefused(guard, log, jar, "ERROR Refused " + jar + ": " + reason + TAIL);
    }

    private static void assertRefusedUnderPolicy(File jar, String reason) throws Exception {
        Path cfg = Files.writeString(
                dir.resolve("delivery-" + jar.getName() + ".cfg"),
                "truststore = " + dir.resolve("trust.p12") + "\ntruststorePassword = " + PASSWORD
                        + "\nverifyDeploy = true\n");
        RecordingLog log = new RecordingLog();
        DeployGuard guard = new DeployGuard(log.logger(), new DeploySignatures(cfg, k -> null));
        String digest =
                HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(jar.toPath())));
        assertRefused(
                guard,
                log,
                jar,
                "ERROR Refused " + jar + ": io.acme.fit 1.2.0 (sha256 " + digest + ") " + reason
                        + " (verifyDeploy = true in etc/io.hotsched.delivery.cfg)" + TAIL);
    }

    private static void assertRefused(DeployGuard guard, RecordingLog log, File jar, String line) {
        assertTrue(guard.canHandle(jar), "the guard claims " + jar);
        try {
            assertNull(guard.transform(jar.toURI().toURL()), "FileInstall is told to install nothing");
        } catch (java.net.MalformedURLException e) {
            throw new AssertionError(e);
        }
        System.out.println("HOSTILE BUNDLE | " + jar.getName() + " | " + log.lines);
        assertEquals(List.of(line), log.lines);
    }

    private static File write(String name, byte[] bytes) throws IOException {
        return Files.write(dir.resolve(name), bytes).toFile();
    }

    private static Manifest manifest(Map<String, String> headers) {
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().putValue("Bundle-ManifestVersion", "2");
        m.getMainAttributes().putValue("Bundle-SymbolicName", "io.acme.fit");
        m.getMainAttributes().putValue("Bundle-Version", "1.2.0");
        headers.forEach((k, v) -> m.getMainAttributes().putValue(k, v));
        return m;
    }

    private static byte[] bundle(Map<String, String> headers, String entry) throws IOException {
        return jar(manifest(headers), entry);
    }

    private static byte[] jar(Manifest m, String entry) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JarOutputStream jar = new JarOutputStream(out, m)) {
            jar.putNextEntry(new ZipEntry(entry));
            jar.write('x');
            jar.closeEntry();
        }
        return out.toByteArray();
    }

    /** {@code jar} with entry {@code name} holding {@code content}: replaced if there, added if not. */
    private static byte[] rewrite(byte[] jar, String name, byte[] content) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        boolean replaced = false;
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(jar));
                ZipOutputStream zip = new ZipOutputStream(out)) {
            for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
                zip.putNextEntry(new ZipEntry(e.getName()));
                if (e.getName().equals(name)) {
                    zip.write(content);
                    replaced = true;
                } else {
                    in.transferTo(zip);
                }
                zip.closeEntry();
            }
            if (!replaced) {
                zip.putNextEntry(new ZipEntry(name));
                zip.write(content);
                zip.closeEntry();
            }
        }
        return out.toByteArray();
    }
}
