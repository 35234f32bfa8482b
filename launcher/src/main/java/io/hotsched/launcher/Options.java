package io.hotsched.launcher;

import io.hotsched.embedded.standins.StandIn;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The command line. Parsing is pure: it never exits or prints, so that {@link Main} decides what a
 * mistake costs (usage and exit code 2).
 */
public final class Options {

    /** Thrown for a command line that cannot be run; the message names the offending word. */
    public static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    static final String USAGE = String.join(
            "\n",
            "Usage: hotsched [options]",
            "       hotsched apiserver [--port N] [--cluster-dir DIR] [--no-stand-in LIST] (--help for more)",
            "",
            "Starts the hotsched scheduler platform (Apache Felix) from its distribution folder;",
            "'hotsched apiserver' runs the embedded API server alone, for schedulers started with",
            "--kubeconfig data/kubeconfig.",
            "",
            "Options:",
            "  --home DIR          distribution folder (default: the folder that holds bin/ and lib/)",
            "  --no-shell          run headless until SIGTERM/SIGINT, without the Gogo shell",
            "                      (also the case when standard input is not a terminal)",
            "  --config FILE       scheduler configuration, KubeSchedulerConfiguration v1",
            "                      (default: etc/scheduler.yaml)",
            "  --kubeconfig FILE   schedule on the cluster this kubeconfig names",
            "  --master URL        schedule on the Kubernetes API server at URL",
            "  --embedded          schedule on the embedded API server (the default when no",
            "                      cluster is named), seeded from etc/cluster/*.yaml",
            "  --embedded-port N   port of the embedded API server on 127.0.0.1 (default: a free one)",
            "  --cluster-dir DIR   seed the embedded API server from DIR/*.yaml instead",
            "  --print-kubeconfig  print the kubeconfig of the embedded API server of the instance that",
            "                      runs from this home (bin/hotsched or bin/hotsched apiserver) and",
            "                      exit; 1 when none runs. Starts nothing",
            "  --no-stand-in LIST  turn off stand-ins of the embedded cluster (comma-separated; repeatable):",
            "                      " + StandIn.names(EnumSet.allOf(StandIn.class)),
            "  --leader-elect      run as one of several replicas: only the holder of the Lease",
            "                      schedules (see etc/io.hotsched.kube.cfg for its name)",
            "  --secure-port N     serve /metrics, /healthz, /livez and /readyz over HTTPS on port N",
            "                      (kube-scheduler's 10259) of --bind-address instead of plain HTTP",
            "                      on metricsAddress; requests are authenticated and authorized by the",
            "                      API server (TokenReview, SubjectAccessReview)",
            "  --bind-address IP   address of the secure port (default 0.0.0.0: every interface)",
            "  --tls-cert-file F   PEM certificate (chain) of the secure port; without it and",
            "  --tls-private-key-file F  its PEM (PKCS#8 or PKCS#1) key, a self-signed one is made",
            "  --authorization-always-allow-paths LIST  paths served without authentication",
            "                      (default /healthz,/readyz,/livez; a trailing * matches a prefix)",
            "  --once              schedule until only unschedulable pods are left, print the",
            "                      table of pods, and exit (0, or 1 if the scheduler failed)",
            "  --version           print the version and exit",
            "  --help              print this help and exit",
            "",
            "Environment:",
            "  JAVA_HOME           the Java 17+ runtime to use (else java on the PATH)",
            "  HOTSCHED_HEAP       the heap's bound, as -Xmx (512m, 2g); default 70% of the memory",
            "  HOTSCHED_OPTS       extra JVM options, after the script's own (they win)",
            "",
            "Exit codes: 0 clean stop, 1 failed to start or to stop in time, 2 bad command line.");

    private boolean help;
    private boolean version;
    private boolean noShell;
    private boolean embedded;
    private boolean once;
    private boolean leaderElect;
    private boolean printKubeconfig;
    private int embeddedPort;
    private final Set<StandIn> standIns = EnumSet.allOf(StandIn.class);
    private Path clusterDir;
    private Path home;
    private Path config;
    private Path kubeconfig;
    private String master;
    private int securePort = -1;
    private String bindAddress;
    private Path tlsCertFile;
    private Path tlsPrivateKeyFile;
    private String alwaysAllowPaths;

    private Options() {}

    public static Options parse(String... args) throws UsageException {
        Options o = new Options();
        Words words = new Words(args);
        Set<String> given = new TreeSet<>();
        for (String word = words.option(); word != null; word = words.option()) {
            given.add(word);
            switch (word) {
                case "--help", "-h" -> o.help = words.flag(word);
                case "--version" -> o.version = words.flag(word);
                case "--no-shell" -> o.noShell = words.flag(word);
                case "--embedded" -> o.embedded = words.flag(word);
                case "--once" -> o.once = words.flag(word);
                case "--leader-elect" -> o.leaderElect = words.flag(word);
                case "--print-kubeconfig" -> o.printKubeconfig = words.flag(word);
                case "--no-stand-in" -> words.turnOff(word, o.standIns);
                case "--embedded-port" -> o.embeddedPort = words.port(word);
                case "--cluster-dir" -> o.clusterDir = Path.of(words.value(word));
                case "--home" -> o.home = Path.of(words.value(word));
                case "--config" -> o.config = Path.of(words.value(word));
                case "--kubeconfig" -> o.kubeconfig = Path.of(words.value(word));
                case "--master" -> o.master = url(words.value(word));
                case "--secure-port" -> o.securePort = words.port(word);
                case "--bind-address" -> o.bindAddress = words.value(word);
                case "--tls-cert-file" -> o.tlsCertFile = Path.of(words.value(word));
                case "--tls-private-key-file" -> o.tlsPrivateKeyFile = Path.of(words.value(word));
                case "--authorization-always-allow-paths" -> o.alwaysAllowPaths = words.value(word);
                default -> throw new UsageException("unknown option '" + word + "'");
            }
        }
        given.remove("--home");
        given.remove("--print-kubeconfig");
        if (o.printKubeconfig && !given.isEmpty()) {
            throw new UsageException("--print-kubeconfig prints the kubeconfig of the instance running from the home"
                    + " folder and exits; it takes no option but --home (not " + String.join(", ", given)
                    + ")");
        }
        if (o.embedded && (o.kubeconfig != null || o.master != null)) {
            throw new UsageException("--embedded cannot be combined with --kubeconfig or --master");
        }
        boolean secureOptions = o.bindAddress != null
                || o.tlsCertFile != null
                || o.tlsPrivateKeyFile != null
                || o.alwaysAllowPaths != null;
        if (secureOptions && o.securePort <= 0) {
            throw new UsageException("--bind-address, --tls-cert-file, --tls-private-key-file and"
                    + " --authorization-always-allow-paths apply to secure serving: give --secure-port too");
        }
        if ((o.tlsCertFile == null) != (o.tlsPrivateKeyFile == null)) {
            throw new UsageException("--tls-cert-file and --tls-private-key-file go together");
        }
        boolean standInsChanged = o.standIns.size() != StandIn.values().length;
        if ((o.embeddedPort != 0 || o.clusterDir != null || standInsChanged) && !o.embeddedMode()) {
            throw new UsageException("--embedded-port, --cluster-dir and --no-stand-in apply to the embedded API "
                    + "server, not to --kubeconfig or --master");
        }
        return o;
    }

    private static String url(String value) throws UsageException {
        if (!value.startsWith("http://") && !value.startsWith("https://")) {
            throw new UsageException("--master '" + value + "' is not an http:// or https:// URL");
        }
        return value;
    }

    public boolean help() {
        return help;
    }

    public boolean version() {
        return version;
    }

    public boolean noShell() {
        return noShell;
    }

    public Optional<Path> home() {
        return Optional.ofNullable(home);
    }

    /**
     * True when the embedded API server is started: asked for, or no cluster named and not running
     * inside one (where the service account is used).
     */
    public boolean embeddedMode() {
        return embedded || kubeconfig == null && master == null && System.getenv("KUBERNETES_SERVICE_HOST") == null;
    }

    /**
     * Secure serving as asked ({@code --secure-port} above 0), or empty: the endpoints then stay on
     * plain HTTP at {@code metricsAddress}.
     */
    public Optional<SecureServing.Request> secureServing() {
        if (securePort <= 0) {
            return Optional.empty();
        }
        return Optional.of(new SecureServing.Request(
                bindAddress == null ? "0.0.0.0" : bindAddress,
                securePort,
                Optional.ofNullable(tlsCertFile),
                Optional.ofNullable(tlsPrivateKeyFile),
                alwaysAllowPaths == null ? SecureServing.ALWAYS_ALLOW_PATHS : alwaysAllowPaths));
    }

    public boolean once() {
        return once;
    }

    public boolean printKubeconfig() {
        return printKubeconfig;
    }

    public int embeddedPort() {
        return embeddedPort;
    }

    /** The stand-ins the embedded cluster plays: all but those turned off. */
    public Set<StandIn> standIns() {
        return EnumSet.copyOf(standIns);
    }

    public Optional<Path> clusterDir() {
        return Optional.ofNullable(clusterDir);
    }

    /**
     * Framework properties that carry the command line to the bundles (read with
     * {@code BundleContext.getProperty}).
     */
    public Map<String, String> frameworkProperties() {
        Map<String, String> props = new LinkedHashMap<>();
        if (config != null) {
            props.put("hotsched.config", config.toAbsolutePath().toString());
        }
        if (kubeconfig != null) {
            props.put("hotsched.kubeconfig", kubeconfig.toAbsolutePath().toString());
        }
        if (master != null) {
            props.put("hotsched.master", master);
        }
        props.put("hotsched.embedded", Boolean.toString(embeddedMode()));
        props.put("hotsched.once", Boolean.toString(once));
        if (leaderElect) {
            props.put("hotsched.leaderElect", "true");
        }
        return props;
    }
}
