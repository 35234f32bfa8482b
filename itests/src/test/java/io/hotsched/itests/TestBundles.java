package io.hotsched.itests;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;

/** Small bundle jars made in memory for deploy/ scenarios. */
final class TestBundles {

    static final String SAMPLE = "io.hotsched.itest.sample";

    private TestBundles() {}

    static byte[] bundle(String symbolicName, String version) {
        return bundle(symbolicName, version, Map.of());
    }

    static byte[] bundle(String symbolicName, String version, Map<String, String> headers) {
        Manifest manifest = new Manifest();
        Attributes main = manifest.getMainAttributes();
        main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        main.putValue("Bundle-ManifestVersion", "2");
        main.putValue("Bundle-SymbolicName", symbolicName);
        main.putValue("Bundle-Version", version);
        headers.forEach(main::putValue);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JarOutputStream jar = new JarOutputStream(bytes, manifest)) {
            jar.putNextEntry(new ZipEntry("about.txt"));
            jar.write((symbolicName + " " + version + "\n").getBytes(StandardCharsets.UTF_8));
            jar.closeEntry();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return bytes.toByteArray();
    }

    /** A plain jar: a manifest, but no OSGi headers. */
    static byte[] plainJar() {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().putValue("Created-By", "a build without bnd");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JarOutputStream jar = new JarOutputStream(bytes, manifest)) {
            jar.putNextEntry(new ZipEntry("io/hotsched/Plain.class"));
            jar.write(new byte[] {(byte) 0xCA, (byte) 0xFE, (byte) 0xBA, (byte) 0xBE});
            jar.closeEntry();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return bytes.toByteArray();
    }

    /** A jar without a manifest: a zip of class files, as a build without bnd would make. */
    static byte[] jarWithoutManifest() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (java.util.zip.ZipOutputStream zip = new java.util.zip.ZipOutputStream(bytes)) {
            zip.putNextEntry(new ZipEntry("io/hotsched/Nothing.class"));
            zip.write(new byte[] {(byte) 0xCA, (byte) 0xFE, (byte) 0xBA, (byte) 0xBE});
            zip.closeEntry();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return bytes.toByteArray();
    }

    /** The bundle jar {@code original} with its Bundle-Version set to {@code version}; the rest unchanged. */
    static byte[] withVersion(byte[] original, String version) {
        return withVersion(original, version, Map.of());
    }

    /** As {@link #withVersion(byte[], String)}, with more main manifest {@code headers}. */
    static byte[] withVersion(byte[] original, String version, Map<String, String> headers) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (java.util.jar.JarInputStream in =
                new java.util.jar.JarInputStream(new java.io.ByteArrayInputStream(original))) {
            Manifest manifest = new Manifest(in.getManifest());
            manifest.getMainAttributes().putValue("Bundle-Version", version);
            headers.forEach(manifest.getMainAttributes()::putValue);
            try (JarOutputStream out = new JarOutputStream(bytes, manifest)) {
                for (java.util.jar.JarEntry e = in.getNextJarEntry(); e != null; e = in.getNextJarEntry()) {
                    out.putNextEntry(new ZipEntry(e.getName()));
                    in.transferTo(out);
                    out.closeEntry();
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return bytes.toByteArray();
    }
}
