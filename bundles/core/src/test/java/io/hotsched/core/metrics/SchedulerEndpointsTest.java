package io.hotsched.core.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The endpoints served over HTTP by the Jetty that the platform's HTTP service embeds. */
class SchedulerEndpointsTest {

    private final SchedulerMetrics metrics = new SchedulerMetrics();
    private final String[] notReady = {"profile p waits for plugins [X]"};
    private final String[] notLive = {null};
    private final HttpClient client = HttpClient.newHttpClient();
    private Server server;
    private String base;

    @BeforeEach
    void serve() throws Exception {
        server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        ServletHolder holder = new ServletHolder(new SchedulerEndpoints(metrics, () -> notLive[0], () -> notReady[0]));
        for (String path : SchedulerEndpoints.PATHS) {
            context.addServlet(holder, path);
        }
        server.setHandler(context);
        server.start();
        base = "http://127.0.0.1:" + connector.getLocalPort();
    }

    @AfterEach
    void stop() throws Exception {
        server.stop();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return client.send(
                HttpRequest.newBuilder(URI.create(base + path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void metricsArePrometheusText() throws Exception {
        metrics.algorithmDuration.observe(0.01);
        HttpResponse<String> r = get("/metrics");
        assertEquals(200, r.statusCode());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/plain; version=0.0.4"));
        assertTrue(r.body().contains("scheduler_scheduling_algorithm_duration_seconds_count 1"), r.body());
    }

    @Test
    void livenessFollowsTheScheduler() throws Exception {
        assertEquals("ok", get("/healthz").body());
        assertEquals("ok", get("/livez").body());
        notLive[0] = "running PreEnqueue plugin \"Gate\": still running after 12000ms";
        assertEquals(500, get("/healthz").statusCode());
        HttpResponse<String> live = get("/livez");
        assertEquals(500, live.statusCode());
        assertEquals(notLive[0], live.body(), "the answer names what holds the scheduler");
    }

    @Test
    void readinessNamesWhatIsMissing() throws Exception {
        HttpResponse<String> ready = get("/readyz");
        assertEquals(503, ready.statusCode());
        assertEquals("profile p waits for plugins [X]", ready.body());
        notReady[0] = null;
        assertEquals(200, get("/readyz").statusCode());
    }
}
