package io.hotsched.platform.deploy;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.Enumeration;
import java.util.Optional;
import java.util.jar.Attributes;
import java.util.jar.JarInputStream;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.osgi.framework.Constants;
import org.osgi.framework.Version;

/**
 * Decides whether a file is an installable OSGi bundle and, if not, says why in words a user can
 * act on. Pure: reads the file, touches nothing else.
 */
public final class BundleFileCheck {

    private BundleFileCheck() {}

    /** Empty when the file is a bundle FileInstall can install; otherwise the reason it is not. */
    public static Optional<String> problem(File file) {
        try {
            if (!file.isFile()) {
                return Optional.of("not a regular file");
            }
            if (file.length() == 0) {
                return Optional.of("the file is empty");
            }
            Optional<String> archive = readableArchive(file);
            if (archive.isPresent()) {
                return archive;
            }
            Manifest manifest;
            try (InputStream in = Files.newInputStream(file.toPath());
                    JarInputStream jar = new JarInputStream(in)) {
                manifest = jar.getManifest();
            }
            if (manifest == null) {
                return Optional.of("no META-INF/MANIFEST.MF at the start of the jar"
                        + " (it must be among the first entries, as the jar tool writes it)");
            }
            return headers(manifest.getMainAttributes());
        } catch (IOException e) {
            return Optional.of("cannot be read: " + e.getMessage());
        }
    }

    private static Optional<String> readableArchive(File file) {
        try (ZipFile zip = new ZipFile(file)) {
            byte[] buffer = new byte[8192];
            Enumeration<? extends ZipEntry> entries = zip.entries();
            while (entries.hasMoreElements()) {
                ZipEntry entry = entries.nextElement();
                try (InputStream in = zip.getInputStream(entry)) {
                    while (in.read(buffer) >= 0) {
                        // reading verifies each entry's CRC: a damaged jar fails here, not in the framework
                    }
                } catch (IOException e) {
                    return Optional.of("damaged jar: entry " + entry.getName() + ": " + e.getMessage());
                }
            }
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of("not a jar (zip) archive, or truncated: " + e.getMessage());
        }
    }

    private static Optional<String> headers(Attributes main) {
        String bsn = main.getValue(Constants.BUNDLE_SYMBOLICNAME);
        if (bsn == null || bsn.isBlank()) {
            return Optional.of("the manifest has no Bundle-SymbolicName: a plain jar, not an OSGi bundle");
        }
        String manifestVersion = main.getValue(Constants.BUNDLE_MANIFESTVERSION);
        if (!"2".equals(manifestVersion == null ? null : manifestVersion.strip())) {
            return Optional.of(
                    "Bundle-ManifestVersion is " + (manifestVersion == null ? "missing" : "'" + manifestVersion + "'")
                            + "; OSGi R4+ bundles declare 2");
        }
        String version = main.getValue(Constants.BUNDLE_VERSION);
        if (version != null) {
            try {
                Version.parseVersion(version.strip());
            } catch (IllegalArgumentException e) {
                return Optional.of("Bundle-Version '" + version + "' is not a version (major.minor.micro.qualifier)");
            }
        }
        return Optional.empty();
    }
}
