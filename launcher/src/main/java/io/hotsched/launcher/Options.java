package io.hotsched.launcher;

import io.hotsched.embedded.standins.StandIn;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

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
            "",
            "Starts the hotsched scheduler platform (Apache Felix) from its distribution folder.",
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
            "  --print-kubeconfig  print a kubeconfig for the embedded API server (for kubectl)",
            "  --no-stand-in LIST  turn off stand-ins of the embedded cluster (comma-separated; repeatable):",
            "                      " + StandIn.names(EnumSet.allOf(StandIn.class)),
            "  --leader-elect      run as one of several replicas: only the holder of the Lease",
            "                      schedules (see etc/io.hotsched.kube.cfg for its name)",
            "  --once              schedule until only unschedulable pods are left, print the",
            "                      table of pods, and exit (0, or 1 if the scheduler failed)",
            "  --version           print the version and exit",
            "  --help              print this help and exit",
            "",
            "Environment:",
            "  JAVA_HOME           the Java 17+ runtime to use (else java on the PATH)",
            "  HOTSCHED_OPTS       extra JVM options, e.g. -Xmx2g",
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

    private Options() {}

    public static Options parse(String... args) throws UsageException {
        Options o = new Options();
        List<String> words = new ArrayList<>(List.of(args));
        for (int i = 0; i < words.size(); i++) {
            String word = words.get(i);
            String value = null;
            int eq = word.indexOf('=');
            if (word.startsWith("--") && eq > 0) {
                value = word.substring(eq + 1);
                word = word.substring(0, eq);
            }
            switch (word) {
                case "--help", "-h" -> o.help = flag(word, value);
                case "--version" -> o.version = flag(word, value);
                case "--no-shell" -> o.noShell = flag(word, value);
                case "--embedded" -> o.embedded = flag(word, value);
                case "--once" -> o.once = flag(word, value);
                case "--leader-elect" -> o.leaderElect = flag(word, value);
                case "--print-kubeconfig" -> o.printKubeconfig = flag(word, value);
                case "--no-stand-in" -> o.turnOff(value != null ? value : next(words, ++i, word));
                case "--embedded-port" -> o.embeddedPort = port(value != null ? value : next(words, ++i, word));
                case "--cluster-dir" -> o.clusterDir = Path.of(value != null ? value : next(words, ++i, word));
                case "--home" -> {
                    o.home = Path.of(value != null ? value : next(words, ++i, word));
                }
                case "--config" -> o.config = Path.of(value != null ? value : next(words, ++i, word));
                case "--kubeconfig" -> o.kubeconfig = Path.of(value != null ? value : next(words, ++i, word));
                case "--master" -> o.master = url(value != null ? value : next(words, ++i, word));
                default -> throw new UsageException("unknown option '" + word + "'");
            }
        }
        if (o.embedded && (o.kubeconfig != null || o.master != null)) {
            throw new UsageException("--embedded cannot be combined with --kubeconfig or --master");
        }
        boolean standInsChanged = o.standIns.size() != StandIn.values().length;
        if ((o.embeddedPort != 0 || o.clusterDir != null || o.printKubeconfig || standInsChanged)
                && !o.embeddedMode()) {
            throw new UsageException(
                    "--embedded-port, --cluster-dir, --print-kubeconfig and --no-stand-in apply to the embedded API "
                            + "server, not to --kubeconfig or --master");
        }
        return o;
    }

    private void turnOff(String list) throws UsageException {
        for (String name : list.split(",")) {
            try {
                standIns.remove(StandIn.named(name));
            } catch (IllegalArgumentException e) {
                throw new UsageException("--no-stand-in: " + e.getMessage());
            }
        }
    }

    private static boolean flag(String word, String value) throws UsageException {
        if (value != null) {
            throw new UsageException("option '" + word + "' takes no value");
        }
        return true;
    }

    private static String next(List<String> words, int i, String word) throws UsageException {
        if (i >= words.size() || words.get(i).startsWith("--")) {
            throw new UsageException("option '" + word + "' needs a value");
        }
        return words.get(i);
    }

    private static int port(String value) throws UsageException {
        try {
            int p = Integer.parseInt(value);
            if (p < 0 || p > 65535) {
                throw new NumberFormatException();
            }
            return p;
        } catch (NumberFormatException e) {
            throw new UsageException("--embedded-port '" + value + "' is not a port number (0-65535)");
        }
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
