package io.hotsched.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * Entry point of {@code bin/hotsched}: reads the distribution's {@code etc/}, boots the platform,
 * and turns the end of the run into an exit code (0 clean stop, 1 failure, 2 bad command line).
 */
public final class Main {

    static final int OK = 0;
    static final int FAILED = 1;
    static final int USAGE = 2;

    private static final Duration DEFAULT_STOP_TIMEOUT = Duration.ofSeconds(8);

    private final PrintStream err;
    private final AtomicBoolean stopRequested = new AtomicBoolean();
    private io.hotsched.embedded.EmbeddedApiServer embedded;

    Main(PrintStream err) {
        this.err = err;
    }

    public static void main(String[] args) {
        System.exit(new Main(System.err).run(args));
    }

    int run(String[] args) {
        if (args.length > 0 && args[0].equals("apiserver")) {
            return runApiServer(Arrays.copyOfRange(args, 1, args.length));
        }
        Options options = parse(Options::parse, args, Options.USAGE);
        if (options == null) {
            return USAGE;
        }
        if (options.help()) {
            return help(Options.USAGE);
        }
        Properties build = buildInfo();
        if (options.version()) {
            System.out.println("hotsched " + build.getProperty("version") + " (Apache Felix "
                    + build.getProperty("felix") + ", Java " + Runtime.version() + ")");
            return OK;
        }
        Path home;
        try {
            home = home(options.home());
        } catch (Exit e) {
            return e.code;
        }
        if (options.printKubeconfig()) {
            return printKubeconfig(home);
        }
        for (String file : List.of("hotsched.config", "hotsched.kubeconfig")) {
            String path = options.frameworkProperties().get(file);
            if (path != null && !Files.isRegularFile(Path.of(path))) {
                err.println("hotsched: --" + file.substring("hotsched.".length()) + " " + path + ": no such file");
                return USAGE;
            }
        }
        Platform platform;
        try {
            platform = configure(home, options, build.getProperty("version"));
        } catch (IOException | IllegalArgumentException e) {
            err.println("hotsched: " + e.getMessage());
            closeEmbedded();
            return FAILED;
        }
        try {
            int code = runPlatform(platform);
            String fromRun = System.getProperty("hotsched.exit.code");
            return fromRun != null && code == OK ? Integer.parseInt(fromRun) : code;
        } finally {
            closeEmbedded();
        }
    }

    private int runApiServer(String[] args) {
        ApiServerOptions options = parse(ApiServerOptions::parse, args, ApiServerOptions.USAGE);
        if (options == null) {
            return USAGE;
        }
        if (options.help()) {
            return help(ApiServerOptions.USAGE);
        }
        Path home;
        try {
            home = home(options.home());
            applySystemProperties(home, lookup(home, buildInfo().getProperty("version")));
        } catch (Exit e) {
            return e.code;
        } catch (IOException e) {
            err.println("hotsched: " + e.getMessage());
            return FAILED;
        }
        return new StandaloneApiServer(err).run(options, home);
    }

    /** A command line's parser ({@link Options}, {@link ApiServerOptions}). */
    private interface Parser<T> {
        T parse(String... args) throws Options.UsageException;
    }

    /** The parsed command line, or null once what is wrong with it and the usage are printed. */
    private <T> T parse(Parser<T> parser, String[] args, String usage) {
        try {
            return parser.parse(args);
        } catch (Options.UsageException e) {
            err.println("hotsched: " + e.getMessage());
            err.println(usage);
            return null;
        }
    }

    private static int help(String usage) {
        System.out.println(usage);
        return OK;
    }

    /** The run ends with {@code code}; the reason is printed already. */
    private static final class Exit extends Exception {
        private static final long serialVersionUID = 1L;
        final int code;

        Exit(int code) {
            super(null, null, false, false);
            this.code = code;
        }
    }

    private int printKubeconfig(Path home) {
        RunningInstance.Found found = RunningInstance.in(home);
        if (found.kubeconfig().isEmpty()) {
            err.println("hotsched: " + found.why());
            return FAILED;
        }
        System.out.print(found.kubeconfig().get());
        System.out.flush();
        return OK;
    }

    /** The distribution folder: {@code --home} or the one this jar is in; it must hold bundle/ and etc/. */
    private Path home(Optional<Path> given) throws Exit {
        Path home;
        try {
            home = given.orElseGet(Main::defaultHome).toAbsolutePath().normalize();
        } catch (IllegalStateException e) {
            err.println("hotsched: " + e.getMessage());
            throw new Exit(USAGE);
        }
        if (!Files.isDirectory(home.resolve("bundle")) || !Files.isDirectory(home.resolve("etc"))) {
            err.println("hotsched: " + home
                    + " is not a hotsched distribution (it needs bundle/ and etc/); use --home DIR");
            throw new Exit(FAILED);
        }
        return home;
    }

    private static Function<String, String> lookup(Path home, String version) {
        Map<String, String> known = known(home, version);
        return name -> known.containsKey(name) ? known.get(name) : System.getProperty(name);
    }

    private static Map<String, String> known(Path home, String version) {
        Map<String, String> known = new LinkedHashMap<>();
        known.put("hotsched.home", home.toString());
        known.put("hotsched.version", version);
        return known;
    }

    /**
     * JVM-wide settings of {@code etc/system.properties} (logging above all), which must be in place
     * before anything creates a logger; a -D on the command line wins over the file.
     */
    private static void applySystemProperties(Path home, Function<String, String> lookup) throws IOException {
        Path system = home.resolve("etc").resolve("system.properties");
        if (Files.isRegularFile(system)) {
            PropertiesFile.load(system, lookup).forEach((k, v) -> {
                if (System.getProperty(k) == null) {
                    System.setProperty(k, v);
                }
            });
        }
    }

    private void closeEmbedded() {
        if (embedded != null) {
            embedded.close();
            embedded = null;
        }
    }

    private Platform configure(Path home, Options options, String version) throws IOException {
        Path etc = home.resolve("etc");
        Function<String, String> lookup = lookup(home, version);
        applySystemProperties(home, lookup);
        Map<String, String> fw = new LinkedHashMap<>(known(home, version));
        fw.putAll(PropertiesFile.load(etc.resolve("config.properties"), lookup));
        fw.putAll(options.frameworkProperties());
        if (options.secureServing().isPresent()) {
            fw.putAll(SecureServing.prepare(options.secureServing().get(), home.resolve("data")));
        }
        if (options.embeddedMode()) {
            embedded = EmbeddedCluster.start(
                    home,
                    options.embeddedPort(),
                    EmbeddedCluster.seedDir(home, options.clusterDir()),
                    options.standIns(),
                    EmbeddedCluster.kubeconfigOf(home),
                    err);
            fw.put("hotsched.master", embedded.url());
        }
        boolean interactive = !options.noShell() && System.console() != null;
        if (!interactive) {
            // Gogo still serves commands to other sessions, but reads nothing from stdin and never
            // stops the framework on end of input.
            fw.put("gosh.args", "--nointeractive");
        }
        Path levelsFile = etc.resolve("startlevels.properties");
        StartLevels levels =
                new StartLevels(Files.isRegularFile(levelsFile) ? PropertiesFile.load(levelsFile, lookup) : Map.of());
        return new Platform(fw, home.resolve("bundle"), levels);
    }

    private int runPlatform(Platform platform) {
        Duration stopTimeout = DEFAULT_STOP_TIMEOUT;
        String configured = System.getProperty("hotsched.stop.timeout.seconds");
        if (configured != null) {
            stopTimeout = Duration.ofSeconds(Long.parseLong(configured.strip()));
        }
        Shutdown shutdown = new Shutdown(platform, stopTimeout, stopRequested, err);
        shutdown.install();
        try {
            long started = System.nanoTime();
            List<String> inactive = platform.start();
            for (String bundle : inactive) {
                err.println("hotsched: platform bundle not active: " + bundle + " (see the error above)");
            }
            err.println("hotsched: started in " + (System.nanoTime() - started) / 1_000_000 + " ms"
                    + (inactive.isEmpty() ? "" : ", " + inactive.size() + " platform bundle(s) not active")
                    + "; plugin bundles go into " + platform.deployDir());
            platform.awaitStop();
            return shutdown.exitCode();
        } catch (Exception e) {
            err.println("hotsched: failed to start: " + e.getMessage());
            try {
                platform.stop(stopTimeout);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
            }
            return FAILED;
        }
    }

    private static Path defaultHome() {
        String prop = System.getProperty("hotsched.home");
        if (prop != null) {
            return Path.of(prop);
        }
        try {
            Path jar = Path.of(Main.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
            // lib/io.hotsched.launcher.jar -> the distribution folder
            return jar.getParent().getParent();
        } catch (URISyntaxException | NullPointerException e) {
            throw new IllegalStateException("cannot tell the distribution folder; use --home DIR");
        }
    }

    private static Properties buildInfo() {
        Properties p = new Properties();
        try (InputStream in = Main.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            // the version is informative only
        }
        return p;
    }
}
