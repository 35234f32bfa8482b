package io.hotsched.launcher;

import io.hotsched.embedded.EmbeddedApiServer;
import io.hotsched.embedded.standins.StandIn;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import sun.misc.Signal;

/**
 * {@code hotsched apiserver}: the embedded API server alone, for schedulers, plugin tests and
 * kubectl sessions to share. No OSGi framework is started; SIGTERM or SIGINT stops the server and
 * the run ends with 0.
 */
final class StandaloneApiServer {

    private final PrintStream err;
    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile String why = "stop";

    StandaloneApiServer(PrintStream err) {
        this.err = err;
    }

    int run(ApiServerOptions options, Path home) {
        for (String name : new String[] {"TERM", "INT"}) {
            try {
                Signal.handle(new Signal(name), signal -> requestStop("SIG" + name));
            } catch (IllegalArgumentException e) {
                // -Xrs or a reserved signal: the shutdown hook below still closes the server
            }
        }
        Path kubeconfig = EmbeddedCluster.kubeconfigOf(home);
        EmbeddedApiServer server;
        try {
            server = EmbeddedCluster.start(
                    home,
                    options.port(),
                    EmbeddedCluster.seedDir(home, options.clusterDir()),
                    options.standIns(),
                    kubeconfig,
                    err);
            if (options.auditLog().isPresent()) {
                server.auditTo(options.auditLog().get());
            }
        } catch (IOException | RuntimeException e) {
            err.println("hotsched: the API server did not start: " + e.getMessage());
            return Main.FAILED;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> close(server), "hotsched-apiserver-shutdown-hook"));
        EnumSet<StandIn> off = EnumSet.complementOf(EnumSet.copyOf(options.standIns()));
        err.println("hotsched: API server only, no scheduler"
                + (off.isEmpty() ? "" : " (stand-ins off: " + StandIn.names(off) + ")")
                + "; schedulers: bin/hotsched --kubeconfig " + kubeconfig + " [--leader-elect]"
                + "; SIGTERM or Ctrl-C stops it");
        try {
            stopRequested.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        err.println("hotsched: " + why + " received, stopping the API server");
        close(server);
        err.println("hotsched: API server stopped");
        return Main.OK;
    }

    void requestStop(String reason) {
        why = reason;
        stopRequested.countDown();
    }

    private void close(EmbeddedApiServer server) {
        if (closed.compareAndSet(false, true)) {
            server.close();
        }
    }
}
