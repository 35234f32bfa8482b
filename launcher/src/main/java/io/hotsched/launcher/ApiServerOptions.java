package io.hotsched.launcher;

import io.hotsched.embedded.standins.StandIn;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/** The command line of {@code hotsched apiserver}: the embedded API server alone, no scheduler. */
final class ApiServerOptions {

    static final String USAGE = String.join(
            "\n",
            "Usage: hotsched apiserver [options]",
            "",
            "Runs the embedded Kubernetes API server alone (no scheduler, no OSGi framework) on 127.0.0.1,",
            "seeded from etc/cluster/*.yaml, with its stand-ins, until SIGTERM or SIGINT. Its kubeconfig is",
            "written to data/kubeconfig: point kubectl and schedulers at it",
            "(bin/hotsched --kubeconfig data/kubeconfig [--leader-elect]).",
            "",
            "Options:",
            "  --home DIR          distribution folder (default: the folder that holds bin/ and lib/)",
            "  --port N            port on 127.0.0.1 (default: a free one)",
            "  --cluster-dir DIR   seed from DIR/*.yaml instead of etc/cluster/",
            "  --audit-log FILE    write an audit log of bindings and Lease writes to FILE (audit.k8s.io/v1",
            "                      Events, one a line), as kube-apiserver's --audit-log-path",
            "  --no-stand-in LIST  turn off stand-ins (comma-separated; repeatable):",
            "                      " + StandIn.names(EnumSet.allOf(StandIn.class)),
            "  --help              print this help and exit",
            "",
            "Exit codes: 0 clean stop, 1 failed to start, 2 bad command line.");

    private boolean help;
    private int port;
    private Path clusterDir;
    private Path home;
    private Path auditLog;
    private final Set<StandIn> standIns = EnumSet.allOf(StandIn.class);

    private ApiServerOptions() {}

    /** @param args the words after {@code apiserver} */
    static ApiServerOptions parse(String... args) throws Options.UsageException {
        ApiServerOptions o = new ApiServerOptions();
        Words words = new Words(args);
        for (String word = words.option(); word != null; word = words.option()) {
            switch (word) {
                case "--help", "-h" -> o.help = words.flag(word);
                case "--port" -> o.port = words.port(word);
                case "--cluster-dir" -> o.clusterDir = Path.of(words.value(word));
                case "--home" -> o.home = Path.of(words.value(word));
                case "--audit-log" -> o.auditLog = Path.of(words.value(word));
                case "--no-stand-in" -> words.turnOff(word, o.standIns);
                default -> throw new Options.UsageException("unknown option '" + word + "' of 'hotsched apiserver'");
            }
        }
        return o;
    }

    boolean help() {
        return help;
    }

    int port() {
        return port;
    }

    Optional<Path> clusterDir() {
        return Optional.ofNullable(clusterDir);
    }

    Optional<Path> auditLog() {
        return Optional.ofNullable(auditLog);
    }

    Optional<Path> home() {
        return Optional.ofNullable(home);
    }

    Set<StandIn> standIns() {
        return EnumSet.copyOf(standIns);
    }
}
