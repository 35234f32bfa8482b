package io.hotsched.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * The bundles of the test's class path that the in-process framework takes from there instead of
 * from the distribution (the API, the testing bundle, the fabric8 model): the system bundle exports
 * their packages, so a test and the bundles in the framework use the same classes (the test's
 * {@code Pod} is the plugin's {@code Pod}).
 */
final class SharedPackages {

    /** Symbolic names (or their starts, ending in '-') of the bundles shared with the class path. */
    static final List<String> SHARED =
            List.of("io.hotsched.api", "io.hotsched.testing", "io.fabric8.kubernetes-model-");

    /** Symbolic name to its Export-Package clauses, for each shared bundle on the class path. */
    private final Map<String, List<String>> exports = new LinkedHashMap<>();

    private SharedPackages() {}

    static SharedPackages fromClassPath() throws IOException {
        SharedPackages s = new SharedPackages();
        for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            Manifest m = manifest(Path.of(entry));
            if (m == null) {
                continue;
            }
            String bsn = symbolicName(m.getMainAttributes().getValue("Bundle-SymbolicName"));
            String exported = m.getMainAttributes().getValue("Export-Package");
            if (isShared(bsn) && exported != null) {
                s.exports.put(bsn, clauses(exported));
            }
        }
        return s;
    }

    /**
     * Takes a fragment of the distribution whose host is shared (the one that exports fabric8's
     * {@code io.fabric8.kubernetes.internal} from kubernetes-model-core): its exports, whose classes
     * are in the host, are exported from the class path with the host's. Returns true when it did.
     */
    boolean takeFragment(Manifest fragment) {
        String host = symbolicName(fragment.getMainAttributes().getValue("Fragment-Host"));
        String exported = fragment.getMainAttributes().getValue("Export-Package");
        if (host == null || !exports.containsKey(host) || exported == null) {
            return false;
        }
        exports.get(host).addAll(clauses(exported));
        return true;
    }

    /** True when {@code bsn} names a bundle of the class path the framework takes from there. */
    boolean provides(String bsn) {
        return exports.containsKey(bsn);
    }

    /**
     * The value of {@code org.osgi.framework.system.packages.extra}: the shared bundles' exports
     * with their versions, without their {@code uses:} constraints (the framework's own Jackson and
     * the class path's are different bundles, and the shared classes never hand either across).
     */
    String systemPackagesExtra() {
        List<String> all = new ArrayList<>();
        exports.values().forEach(cs -> cs.forEach(c -> all.add(c.replaceAll(";\\s*uses:=\"[^\"]*\"", ""))));
        return String.join(",", all);
    }

    static boolean isShared(String bsn) {
        return bsn != null && SHARED.stream().anyMatch(s -> s.endsWith("-") ? bsn.startsWith(s) : bsn.equals(s));
    }

    static String symbolicName(String header) {
        return header == null ? null : header.split(";")[0].strip();
    }

    /** The clauses of a manifest header: split at commas outside quoted strings. */
    static List<String> clauses(String header) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean quoted = false;
        for (char c : header.toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
            }
            if (c == ',' && !quoted) {
                out.add(current.toString().strip());
                current.setLength(0);
            } else {
                current.append(c);
            }
        }
        if (!current.isEmpty()) {
            out.add(current.toString().strip());
        }
        return out;
    }

    /** The manifest of a jar or of a classes folder (bnd writes it there too), or null. */
    static Manifest manifest(Path entry) throws IOException {
        if (Files.isDirectory(entry)) {
            Path mf = entry.resolve("META-INF/MANIFEST.MF");
            if (!Files.isRegularFile(mf)) {
                return null;
            }
            try (InputStream in = Files.newInputStream(mf)) {
                return new Manifest(in);
            }
        }
        if (!Files.isRegularFile(entry) || !entry.toString().endsWith(".jar")) {
            return null;
        }
        try (JarFile jar = new JarFile(entry.toFile())) {
            return jar.getManifest();
        }
    }
}
