package io.hotsched.platform;

import io.hotsched.testing.TestSigners;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;

/** What the signature tests sign: small bundle jars, and the keys ci and stranger. */
public final class TestBundles {

    public static final String PASSWORD = "test-pass";

    private TestBundles() {}

    /** The keys ci and stranger, made under {@code dir/keys}. */
    public static TestSigners signers(Path dir) throws IOException {
        return TestSigners.create(dir.resolve("keys"), PASSWORD, "ci", "stranger");
    }

    /** A bundle {@code bsn} {@code version} whose one entry, io/acme/fit/about.txt, holds {@code about}. */
    public static byte[] bundle(String bsn, String version, byte[] about) throws IOException {
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().putValue("Bundle-ManifestVersion", "2");
        m.getMainAttributes().putValue("Bundle-SymbolicName", bsn);
        m.getMainAttributes().putValue("Bundle-Version", version);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JarOutputStream jar = new JarOutputStream(out, m)) {
            jar.putNextEntry(new ZipEntry("io/acme/fit/about.txt"));
            jar.write(about);
            jar.closeEntry();
        }
        return out.toByteArray();
    }
}
