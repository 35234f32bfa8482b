package io.hotsched.core.osgi;

import io.hotsched.core.metrics.MetricsServer;
import io.hotsched.core.scheduler.Scheduler;
import java.io.IOException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /metrics}, {@code /healthz} and {@code /readyz} on the configured {@code metricsAddress},
 * moved when the address changes. A port that cannot be bound is logged, never fatal: scheduling
 * matters more than its metrics.
 */
final class MetricsEndpoint {

    private static final Logger LOG = LoggerFactory.getLogger(MetricsEndpoint.class);

    private final Supplier<Scheduler> scheduler;
    private MetricsServer server;
    private String address = "";

    /** @param scheduler the running scheduler, or null once stopped */
    MetricsEndpoint(Supplier<Scheduler> scheduler) {
        this.scheduler = scheduler;
    }

    /** Serves on {@code wanted} (host:port; empty: nowhere) unless it already does. */
    synchronized void serveOn(String wanted) {
        String a = wanted == null ? "" : wanted.trim();
        if (a.equals(address) && (server != null || a.isEmpty())) {
            return;
        }
        close();
        address = a;
        Scheduler s = scheduler.get();
        if (a.isEmpty() || s == null) {
            return;
        }
        try {
            server = MetricsServer.start(a, s.metrics(), () -> scheduler.get() != null, () -> {
                Scheduler now = scheduler.get();
                return now == null ? "stopped" : now.notReady();
            });
            LOG.info(
                    "Serving /metrics, /healthz and /readyz on http://{}:{}",
                    server.address().getHostString(),
                    server.address().getPort());
        } catch (IllegalArgumentException e) {
            LOG.error("etc/io.hotsched.scheduler.cfg: {}; no metrics are served", e.getMessage());
        } catch (IOException e) {
            LOG.error(
                    "etc/io.hotsched.scheduler.cfg: metricsAddress {} cannot be served ({}); scheduling goes on without /metrics",
                    a,
                    e.toString());
        }
    }

    synchronized void close() {
        if (server != null) {
            server.close();
            server = null;
        }
        address = "";
    }
}
