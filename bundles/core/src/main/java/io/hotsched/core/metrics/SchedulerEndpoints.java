package io.hotsched.core.metrics;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;

/**
 * {@code /metrics} (Prometheus text), {@code /healthz}, {@code /livez} and {@code /readyz}, as
 * kube-scheduler serves them: one servlet for the four paths, registered on the HTTP Whiteboard.
 */
public final class SchedulerEndpoints extends HttpServlet {

    private static final long serialVersionUID = 1L;

    /** The paths this servlet answers, for its whiteboard registration. */
    public static final List<String> PATHS = List.of("/metrics", "/healthz", "/livez", "/readyz");

    private final transient SchedulerMetrics metrics;
    private final transient Supplier<String> notLive;
    private final transient Supplier<String> notReady;

    /**
     * @param notLive why the scheduler is not live (500 with that text), or null when it is (200)
     * @param notReady why the scheduler is not ready (503 with that text), or null when it is (200)
     */
    public SchedulerEndpoints(SchedulerMetrics metrics, Supplier<String> notLive, Supplier<String> notReady) {
        this.metrics = metrics;
        this.notLive = notLive;
        this.notReady = notReady;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String path = req.getServletPath();
        switch (path) {
            case "/metrics" -> {
                StringBuilder text = new StringBuilder(64 * 1024);
                metrics.writeText(text);
                reply(resp, 200, "text/plain; version=0.0.4; charset=utf-8", text.toString());
            }
            case "/healthz", "/livez" -> {
                String why = notLive.get();
                reply(resp, why == null ? 200 : 500, "text/plain; charset=utf-8", why == null ? "ok" : why);
            }
            case "/readyz" -> {
                String why = notReady.get();
                reply(resp, why == null ? 200 : 503, "text/plain; charset=utf-8", why == null ? "ok" : why);
            }
            default -> reply(resp, 404, "text/plain; charset=utf-8", "404 page not found");
        }
    }

    private static void reply(HttpServletResponse resp, int code, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        resp.setStatus(code);
        resp.setContentType(type);
        resp.setContentLength(bytes.length);
        resp.getOutputStream().write(bytes);
    }
}
