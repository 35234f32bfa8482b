package io.hotsched.embedded;

import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.ServerWebSocket;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Watches served over the connection they were asked on, as kube-apiserver serves them: over plain
 * HTTP a chunked {@code application/json} answer with one WatchEvent a line that stays open
 * (kubectl and client-go watch this way), over a WebSocket one event a message (fabric8's
 * clients). The mock server can do neither for a plain HTTP answer (its answers are whole
 * bodies), so watch requests come here before it. The stream ends after {@code timeoutSeconds}
 * with the last chunk; a client that goes ends its watch.
 */
final class WatchStreams {

    private final Vertx vertx;
    private final Supplier<Dispatcher> dispatcher;
    private final Set<Watch> streaming = ConcurrentHashMap.newKeySet();

    WatchStreams(Vertx vertx, Supplier<Dispatcher> dispatcher) {
        this.vertx = vertx;
        this.dispatcher = dispatcher;
    }

    /** Whether {@code request} is a watch (any other request is the mock server's). */
    static boolean wanted(HttpServerRequest request) {
        return request.method() == io.vertx.core.http.HttpMethod.GET && ListParams.isWatch(request.uri());
    }

    void serve(HttpServerRequest request) {
        boolean upgrade = isWebSocket(request);
        MockResponse answer = dispatcher
                .get()
                .dispatch(new RecordedRequest(
                        request.version().alpnName().toUpperCase(Locale.ROOT),
                        HttpMethod.GET,
                        request.uri(),
                        Headers.builder().addAll(request.headers()).build(),
                        new Buffer()));
        Watch watch = Watch.carried(answer);
        if (watch == null) {
            send(request, answer);
            return;
        }
        if (upgrade) {
            // before anything reads the request: an upgrade must come first
            request.toWebSocket().onSuccess(ws -> overWebSocket(watch, ws)).onFailure(e -> watch.close());
        } else {
            request.resume();
            overHttp(watch, request.response(), request.version() != HttpVersion.HTTP_2);
        }
    }

    /** Ends the watches being streamed (the server stops). */
    void endAll() {
        streaming.forEach(Watch::end);
    }

    private void overHttp(Watch watch, HttpServerResponse response, boolean chunked) {
        response.setStatusCode(200).putHeader("Content-Type", Negotiation.JSON);
        if (chunked) {
            response.setChunked(true);
        }
        response.closeHandler(v -> watch.close());
        response.exceptionHandler(e -> watch.close());
        // the headers now: a client's watch call returns once it has them
        response.writeHead();
        start(watch, new Watch.Sink() {
            @Override
            public void send(String event) {
                response.write(event + "\n");
            }

            @Override
            public void end() {
                if (!response.ended()) {
                    response.end();
                }
            }
        });
    }

    private void overWebSocket(Watch watch, ServerWebSocket ws) {
        ws.closeHandler(v -> watch.close());
        ws.exceptionHandler(e -> watch.close());
        // a client sends nothing on a watch; what it might is dropped
        ws.textMessageHandler(text -> {});
        ws.binaryMessageHandler(bytes -> {});
        ws.resume();
        start(watch, new Watch.Sink() {
            @Override
            public void send(String event) {
                ws.writeTextMessage(event);
            }

            @Override
            public void end() {
                if (!ws.isClosed()) {
                    ws.close((short) 1000, "");
                }
            }
        });
    }

    private void start(Watch watch, Watch.Sink sink) {
        streaming.add(watch);
        watch.onFinish(() -> streaming.remove(watch));
        if (watch.timeoutMillis() > 0) {
            long timer = vertx.setTimer(watch.timeoutMillis(), id -> watch.end());
            watch.onFinish(() -> vertx.cancelTimer(timer));
        }
        if (watch.wantsBookmarks()) {
            long timer = vertx.setPeriodic(watch.bookmarkMillis(), id -> watch.tick());
            watch.onFinish(() -> vertx.cancelTimer(timer));
        }
        watch.attach(sink);
    }

    /** A whole answer (a refused watch) as the mock server would send it. */
    private static void send(HttpServerRequest request, MockResponse answer) {
        request.resume();
        HttpServerResponse r = request.response().setStatusCode(answer.code() == 0 ? 500 : answer.code());
        answer.getHeaders().toMultimap().forEach((k, v) -> r.headers().add(k, v));
        if (answer.getBody() != null && answer.getBody().size() > 0) {
            r.end(io.vertx.core.buffer.Buffer.buffer(answer.getBody().getBytes()));
        } else {
            r.end();
        }
    }

    private static boolean isWebSocket(HttpServerRequest request) {
        String upgrade = request.getHeader("Upgrade");
        return upgrade != null && upgrade.toLowerCase(Locale.ROOT).contains("websocket");
    }
}
