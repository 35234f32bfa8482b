package io.hotsched.platform.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BundleFileCheckTest {

    @TempDir
    Path dir;

    @Test
    void aBundleHasNoProblem() throws IOException {
        File jar = jar(
                "ok.jar",
                Map.of("Bundle-ManifestVersion", "2", "Bundle-SymbolicName", "x.y", "Bundle-Version", "1.2.3"));
        assertEquals(Optional.empty(), BundleFileCheck.problem(jar));
    }

    @Test
    void garbageIsNotAnArchive() throws IOException {
        File file = dir.resolve("garbage.jar").toFile();
        Files.writeString(file.toPath(), "this is not a jar at all", StandardCharsets.UTF_8);
        assertProblem(file, "not a jar (zip) archive");
    }

    @Test
    void emptyFile() throws IOException {
        File file = dir.resolve("empty.jar").toFile();
        Files.createFile(file.toPath());
        assertProblem(file, "empty");
    }

    @Test
    void truncatedJarIsRefused() throws IOException {
        File ok = jar("full.jar", Map.of("Bundle-ManifestVersion", "2", "Bundle-SymbolicName", "x.y"));
        byte[] bytes = Files.readAllBytes(ok.toPath());
        File cut = dir.resolve("cut.jar").toFile();
        Files.write(cut.toPath(), Arrays.copyOf(bytes, bytes.length / 2));
        assertProblem(cut, "truncated");
    }

    @Test
    void zipWithoutManifest() throws IOException {
        File file = dir.resolve("nomf.jar").toFile();
        try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(file.toPath()))) {
            zip.putNextEntry(new ZipEntry("a/B.class"));
            zip.write(new byte[] {1, 2, 3});
            zip.closeEntry();
        }
        assertProblem(file, "no META-INF/MANIFEST.MF");
    }

    @Test
    void plainJarWithoutSymbolicName() throws IOException {
        assertProblem(jar("plain.jar", Map.of("Created-By", "test")), "no Bundle-SymbolicName");
    }

    @Test
    void oldManifestVersion() throws IOException {
        assertProblem(jar("r3.jar", Map.of("Bundle-SymbolicName", "x.y")), "Bundle-ManifestVersion is missing");
    }

    @Test
    void badVersion() throws IOException {
        assertProblem(
                jar(
                        "v.jar",
                        Map.of("Bundle-ManifestVersion", "2", "Bundle-SymbolicName", "x.y", "Bundle-Version", "one")),
                "Bundle-Version 'one'");
    }

    private static void assertProblem(File file, String expected) {
        Optional<String> problem = BundleFileCheck.problem(file);
        assertTrue(problem.isPresent(), "expected a problem for " + file);
        assertTrue(problem.get().contains(expected), problem.get());
    }

    private File jar(String name, Map<String, String> headers) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        headers.forEach((k, v) -> manifest.getMainAttributes().putValue(k, v));
        File file = dir.resolve(name).toFile();
        try (OutputStream out = Files.newOutputStream(file.toPath());
                JarOutputStream jar = new JarOutputStream(out, manifest)) {
            jar.putNextEntry(new ZipEntry("data/payload.txt"));
            jar.write("x".repeat(4096).getBytes(StandardCharsets.UTF_8));
            jar.closeEntry();
        }
        return file;
    }
}
