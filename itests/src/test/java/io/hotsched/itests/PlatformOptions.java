package io.hotsched.itests;

import static org.ops4j.pax.exam.CoreOptions.bundle;
import static org.ops4j.pax.exam.CoreOptions.cleanCaches;
import static org.ops4j.pax.exam.CoreOptions.frameworkProperty;
import static org.ops4j.pax.exam.CoreOptions.frameworkStartLevel;
import static org.ops4j.pax.exam.CoreOptions.junitBundles;
import static org.ops4j.pax.exam.CoreOptions.systemProperty;

import io.hotsched.launcher.PropertiesFile;
import io.hotsched.launcher.StartLevels;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.ops4j.pax.exam.Option;

/**
 * Pax Exam options that boot Felix the way {@code bin/hotsched} does: every jar of the built
 * distribution's {@code bundle/} at the start level {@code etc/startlevels.properties} gives it,
 * and the framework properties of {@code etc/config.properties}, against a fresh home folder with
 * a copy of the distribution's {@code etc/} and an empty {@code deploy/}. Runs outside the
 * container, before the framework boots.
 */
final class PlatformOptions {

    /** Framework property under which the in-container test finds the home folder. */
    static final String HOME = "hotsched.home";

    private PlatformOptions() {}

    static Option[] platform() throws IOException {
        return platform(Map.of(), false);
    }

    /**
     * @param etcFiles files to write into the home's etc/ (name to content), over the distribution's
     * @param withTesting also install the testing bundle (the in-memory cluster)
     */
    static Option[] platform(Map<String, String> etcFiles, boolean withTesting) throws IOException {
        return platform(etcFiles, withTesting, null);
    }

    /**
     * @param master the Kubernetes API server to connect to (the shipped Kubernetes bundle is then
     * installed too, with {@code hotsched.master} set); null: no Kubernetes connection
     */
    static Option[] platform(Map<String, String> etcFiles, boolean withTesting, String master) throws IOException {
        Path dist = Path.of(System.getProperty("hotsched.dist", "../distribution/target/hotsched-dist-missing"));
        if (!Files.isDirectory(dist.resolve("bundle"))) {
            throw new IOException("no built distribution at " + dist + "; build the reactor (mvn verify) first");
        }
        Path home = Files.createTempDirectory("hotsched-it-");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(home)));
        copyTree(dist.resolve("etc"), home.resolve("etc"));
        Files.createDirectories(home.resolve("deploy"));
        Files.createDirectories(home.resolve("delivered"));
        for (Map.Entry<String, String> e : etcFiles.entrySet()) {
            Files.writeString(home.resolve("etc").resolve(e.getKey()), e.getValue());
        }

        Function<String, String> lookup = name -> HOME.equals(name) ? home.toString() : System.getProperty(name);
        Path etc = home.resolve("etc");
        List<Option> options = new ArrayList<>();
        options.add(frameworkProperty(HOME).value(home.toString()));
        for (Map.Entry<String, String> e :
                PropertiesFile.load(etc.resolve("config.properties"), lookup).entrySet()) {
            // Pax Exam owns the framework storage of the test container
            if (!e.getKey().startsWith("org.osgi.framework.storage")) {
                options.add(frameworkProperty(e.getKey()).value(e.getValue()));
            }
        }
        // as the launcher does when there is no terminal
        options.add(frameworkProperty("gosh.args").value("--nointeractive"));
        for (Map.Entry<String, String> e :
                PropertiesFile.load(etc.resolve("system.properties"), lookup).entrySet()) {
            options.add(systemProperty(e.getKey()).value(e.getValue()));
        }
        StartLevels levels = new StartLevels(PropertiesFile.load(etc.resolve("startlevels.properties"), lookup));
        try (Stream<Path> jars = Files.list(dist.resolve("bundle"))) {
            // the Kubernetes connection is tested over HTTP elsewhere; here the in-memory cluster stands in
            for (Path jar : jars.filter(p -> p.toString().endsWith(".jar")
                            && (master != null || !p.getFileName().toString().startsWith("io.hotsched.kube-")))
                    .sorted()
                    .toList()) {
                String bsn = symbolicName(jar);
                boolean fragment = isFragment(jar);
                options.add(bundle(jar.toUri().toString())
                        .startLevel(levels.levelOf(bsn))
                        .start(!fragment));
            }
        }
        if (master != null) {
            options.add(frameworkProperty("hotsched.master").value(master));
        }
        if (withTesting) {
            options.add(bundle(Path.of(System.getProperty("hotsched.testing.bundle"))
                            .toUri()
                            .toString())
                    .startLevel(30)
                    .start());
        }
        options.add(frameworkStartLevel(100));
        options.add(junitBundles());
        options.add(cleanCaches(true));
        return options.toArray(Option[]::new);
    }

    private static String symbolicName(Path jar) throws IOException {
        try (JarFile f = new JarFile(jar.toFile())) {
            String bsn = f.getManifest().getMainAttributes().getValue("Bundle-SymbolicName");
            return bsn == null ? "" : bsn.split(";")[0].strip();
        }
    }

    private static boolean isFragment(Path jar) throws IOException {
        try (JarFile f = new JarFile(jar.toFile())) {
            return f.getManifest().getMainAttributes().getValue("Fragment-Host") != null;
        }
    }

    private static void deleteTree(Path root) {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // a leftover temporary folder is harmless
        }
    }

    /** Copies the folder {@code from} to {@code to}, keeping the files' attributes (bin/hotsched stays executable). */
    static Path copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path p : files.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
        return to;
    }
}
