package io.hotsched.launcher;

import io.hotsched.embedded.EmbeddedApiServer;
import io.hotsched.embedded.standins.StandIn;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Starts the embedded API server for a run that names no cluster, seeded and with its kubeconfig written. */
final class EmbeddedCluster {

    /** The SchedulerPlugin definition in {@code etc/crds/}, created in the embedded server at start. */
    static final String SCHEDULER_PLUGIN_CRD = "schedulerplugins.hotsched.io.yaml";

    private EmbeddedCluster() {}

    /** Where a home's embedded API server writes its kubeconfig (and where a running one is found). */
    static Path kubeconfigOf(Path home) {
        return home.resolve("data").resolve("kubeconfig");
    }

    /** The folder to seed from: {@code --cluster-dir}, else {@code etc/cluster/} if there is one, else none. */
    static Path seedDir(Path home, Optional<Path> clusterDir) {
        Path etcCluster = home.resolve("etc").resolve("cluster");
        return clusterDir.orElse(Files.isDirectory(etcCluster) ? etcCluster : null);
    }

    /**
     * @param home the distribution folder, whose {@code etc/crds/} holds hotsched's own definitions
     * @param seedDir the folder of *.yaml objects to create, or null for none
     * @param standIns the stand-ins to play
     * @param kubeconfig where to write a kubeconfig for kubectl
     */
    static EmbeddedApiServer start(
            Path home, int port, Path seedDir, Set<StandIn> standIns, Path kubeconfig, PrintStream err)
            throws IOException {
        EmbeddedApiServer server = new EmbeddedApiServer().start(port);
        try {
            int objects = 0;
            // the definitions hotsched itself reads (plugin delivery), so that it works out of the box
            Path ownKinds = home.resolve("etc").resolve("crds").resolve(SCHEDULER_PLUGIN_CRD);
            if (Files.isRegularFile(ownKinds)) {
                server.create(List.of(ownKinds));
            }
            if (seedDir != null) {
                if (!Files.isDirectory(seedDir)) {
                    throw new IOException("--cluster-dir " + seedDir + ": no such folder");
                }
                objects = server.seed(seedDir);
            }
            server.startStandIns(standIns);
            Files.createDirectories(kubeconfig.getParent());
            Files.writeString(kubeconfig, server.kubeconfig());
            err.println("hotsched: embedded API server at " + server.url()
                    + (seedDir == null ? "" : ", " + objects + " objects from " + seedDir) + "; kubectl --kubeconfig "
                    + kubeconfig + " get pods");
            return server;
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
    }
}
