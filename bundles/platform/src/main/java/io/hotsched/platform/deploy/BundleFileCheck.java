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

    /** Far above any real bundle's manifest (the largest shipped one is a few KiB), far below harm. */
    static final int MAX_MANIFEST_BYTES = 1024 * 1024;

    private static final String MANIFEST = "META-INF/MANIFEST.MF";
    private static final String API_BUNDLE = "io.hotsched.api";
    private static final String API_PREFIX = "io.hotsched.api";

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
                if (escapes(entry.getName())) {
                    return Optional.of("entry " + entry.getName() + " names a path outside the jar (.. or a leading /):"
                            + " a zip slip, which would write outside the bundle cache when unpacked");
                }
                boolean manifest = entry.getName().equalsIgnoreCase(MANIFEST);
                long read = 0;
                try (InputStream in = zip.getInputStream(entry)) {
                    // reading verifies each entry's CRC: a damaged jar fails here, not in the framework
                    for (int n; (n = in.read(buffer)) >= 0; ) {
                        read += n;
                        if (manifest && read > MAX_MANIFEST_BYTES) {
                            // the framework holds the whole manifest in memory, its headers in every wiring
                            return Optional.of("the manifest is larger than " + MAX_MANIFEST_BYTES
                                    + " bytes, far past any bundle's; it is not read");
                        }
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

    /** A name that, unpacked under a directory, would land outside it. */
    private static boolean escapes(String name) {
        String n = name.replace('\\', '/');
        if (n.startsWith("/") || n.matches("^[A-Za-z]:.*")) {
            return true;
        }
        for (String segment : n.split("/")) {
            if (segment.equals("..")) {
                return true;
            }
        }
        return false;
    }

    private static Optional<String> headers(Attributes main) {
        String bsn = main.getValue(Constants.BUNDLE_SYMBOLICNAME);
        if (bsn == null || bsn.isBlank()) {
            return Optional.of("the manifest has no Bundle-SymbolicName: a plain jar, not an OSGi bundle");
        }
        String name = bsn.split(";")[0].strip();
        if (!name.equals(API_BUNDLE)) {
            for (String exported : ManifestClauses.packages(main.getValue(Constants.EXPORT_PACKAGE))) {
                if (exported.equals(API_PREFIX) || exported.startsWith(API_PREFIX + ".")) {
                    return Optional.of(name + " exports " + exported + ", a package of the scheduler's API, which only "
                            + API_BUNDLE + " may export: a second copy would split the plugins between two APIs;"
                            + " import the package instead");
                }
            }
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
