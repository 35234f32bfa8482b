package io.hotsched.core.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * {@code /metrics} (Prometheus text), {@code /healthz} and {@code /readyz} over plain HTTP, as
 * kube-scheduler serves them on its port: one thread, since a scrape every few seconds is all it
 * serves.
 */
public final class MetricsServer implements AutoCloseable {

    private final HttpServer server;
    private final ExecutorService thread;

    private MetricsServer(HttpServer server, ExecutorService thread) {
        this.server = server;
        this.thread = thread;
    }

    /**
     * Serves {@code metrics} on {@code address} ({@code host:port}; port 0 picks a free one).
     *
     * @param notReady why the scheduler is not ready (503 with that text), or null when it is (200)
     * @throws IllegalArgumentException naming the value when it is not {@code host:port}
     * @throws IOException when the port cannot be bound
     */
    public static MetricsServer start(
            String address, SchedulerMetrics metrics, BooleanSupplier healthy, Supplier<String> notReady)
            throws IOException {
        InetSocketAddress at = parse(address);
        HttpServer server = HttpServer.create(at, 16);
        server.createContext("/metrics", ex -> {
            StringBuilder text = new StringBuilder(64 * 1024);
            metrics.writeText(text);
            reply(ex, 200, "text/plain; version=0.0.4; charset=utf-8", text.toString());
        });
        server.createContext("/healthz", ex -> {
            boolean ok = healthy.getAsBoolean();
            reply(ex, ok ? 200 : 500, "text/plain; charset=utf-8", ok ? "ok" : "not running");
        });
        server.createContext("/readyz", ex -> {
            String why = notReady.get();
            reply(ex, why == null ? 200 : 503, "text/plain; charset=utf-8", why == null ? "ok" : why);
        });
        ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "hotsched-metrics");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(thread);
        server.start();
        return new MetricsServer(server, thread);
    }

    static InetSocketAddress parse(String address) {
        int colon = address.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException(
                    "metricsAddress \"" + address + "\" is not host:port (e.g. 127.0.0.1:10259, or empty for none)");
        }
        String host = address.substring(0, colon);
        try {
            int port = Integer.parseInt(address.substring(colon + 1));
            if (port < 0 || port > 65535) {
                throw new NumberFormatException();
            }
            return host.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "metricsAddress \"" + address + "\": the port must be a number from 0 to 65535");
        }
    }

    private static void reply(HttpExchange ex, int code, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", type);
        ex.sendResponseHeaders(code, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** The address it listens on (with the port chosen when 0 was asked). */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    @Override
    public void close() {
        server.stop(0);
        thread.shutdownNow();
    }
}
