package io.hotsched.core.extender;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import javax.net.ssl.SSLContext;

/**
 * A real HTTP server standing in for a scheduler extender: each verb answers a recorded
 * upstream-shaped JSON (or a status code, or nothing until the test lets it answer); every request
 * body is kept.
 */
final class ExtenderServer implements AutoCloseable {

    /** What one verb answers, once {@code held} (when not null) is counted down. */
    record Answer(int code, String body, CountDownLatch held) {
        static Answer json(String body) {
            return status(200, body);
        }

        static Answer status(int code, String body) {
            return new Answer(code, body, null);
        }

        /** An extender that thinks until the test counts {@code until} down. */
        static Answer held(String json, CountDownLatch until) {
            return new Answer(200, json, until);
        }
    }

    private final HttpServer server;
    private final Map<String, Function<String, Answer>> answers = new ConcurrentHashMap<>();
    final List<String> requests = new CopyOnWriteArrayList<>();
    final List<String> paths = new CopyOnWriteArrayList<>();

    ExtenderServer() throws IOException {
        this((HttpsConfigurator) null);
    }

    /** Over TLS with {@code tls}'s server certificate when not null. */
    ExtenderServer(SSLContext tls) throws IOException {
        this(tls == null ? null : new HttpsConfigurator(tls));
    }

    /** Over TLS as {@code tls} configures it (a client certificate required, say) when not null. */
    ExtenderServer(HttpsConfigurator tls) throws IOException {
        if (tls == null) {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } else {
            HttpsServer s = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            s.setHttpsConfigurator(tls);
            server = s;
        }
        server.createContext("/", this::handle);
        server.setExecutor(Executors.newCachedThreadPool());
        server.start();
    }

    ExtenderServer answer(String verb, Answer a) {
        return answer(verb, body -> a);
    }

    /** Answers computed from the request body (a binder that binds, say). */
    ExtenderServer answer(String verb, Function<String, Answer> a) {
        answers.put("/scheduler/" + verb, a);
        return this;
    }

    ExtenderServer answer(String verb, String json) {
        return answer(verb, Answer.json(json));
    }

    String url() {
        String scheme = server instanceof HttpsServer ? "https" : "http";
        return scheme + "://127.0.0.1:" + server.getAddress().getPort() + "/scheduler/";
    }

    String last() {
        return requests.get(requests.size() - 1);
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            requests.add(body);
            paths.add(ex.getRequestMethod() + " " + ex.getRequestURI().getPath() + " "
                    + ex.getRequestHeaders().getFirst("Content-Type"));
            Answer a = answers.getOrDefault(ex.getRequestURI().getPath(), b -> Answer.status(404, "no such verb"))
                    .apply(body);
            if (a.held() != null) {
                try {
                    // bounded: a test that fails before releasing it must not keep the server busy
                    a.held().await(20, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            byte[] out = a.body().getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.sendResponseHeaders(a.code(), out.length);
            ex.getResponseBody().write(out);
        } catch (IOException e) {
            // the client gave up (a time-out test): nothing to answer
        }
    }

    @Override
    public void close() {
        server.stop(0);
        ((ExecutorService) server.getExecutor()).shutdownNow();
    }
}
