package io.hotsched.embedded;

import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.HttpUrl;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.vertx.HttpServerRequestHandler;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * fabric8's mock web server with its HTTP server built here, so that watch requests reach
 * {@link WatchStreams} before the mock's own request handler, which answers everything else as
 * before. The server is set up as the mock sets up its own (same Vert.x instance, options and
 * handler); unlike the mock's, it does not keep every request it served (nothing read them, and at
 * a scheduler's rates they filled the heap).
 */
final class ApiWebServer extends MockWebServer {

    private final Vertx vertx = parentVertx();
    private volatile Dispatcher dispatcher;
    private WatchStreams watches;
    private HttpServer http;
    private InetAddress address;
    private int port;
    private boolean stopped;

    @Override
    public void setDispatcher(Dispatcher dispatcher) {
        super.setDispatcher(dispatcher);
        this.dispatcher = dispatcher;
    }

    @Override
    public synchronized void start(InetAddress inetAddress, int port) {
        if (http != null) {
            throw new IllegalStateException("start() already called");
        }
        this.address = inetAddress;
        HttpServerOptions options = new HttpServerOptions()
                .setHost(inetAddress.getHostAddress())
                .setPort(port)
                .setAlpnVersions(
                        List.of(io.vertx.core.http.HttpVersion.HTTP_2, io.vertx.core.http.HttpVersion.HTTP_1_1))
                .setWebSocketSubProtocols(
                        List.of("v1.channel.k8s.io", "v2.channel.k8s.io", "v3.channel.k8s.io", "v4.channel.k8s.io"))
                .setHandle100ContinueAutomatically(true)
                .setHttp2ClearTextEnabled(true);
        watches = new WatchStreams(vertx, () -> dispatcher);
        HttpServerRequestHandler mock = new HttpServerRequestHandler(vertx) {
            @Override
            protected MockResponse onHttpRequest(RecordedRequest request) {
                return dispatcher.dispatch(request);
            }
        };
        http = vertx.createHttpServer(options).requestHandler(request -> {
            if (WatchStreams.wanted(request)) {
                watches.serve(request);
            } else {
                mock.handle(request);
            }
        });
        this.port = await(http.listen(), "the embedded API server could not listen on " + inetAddress + ":" + port)
                .actualPort();
    }

    /** Ends the watches being streamed; their clients see the stream close and watch again. */
    void endWatches() {
        if (watches != null) {
            watches.endAll();
        }
    }

    @Override
    public synchronized void shutdown() {
        if (http == null || stopped) {
            return;
        }
        stopped = true;
        // open watches would hold the server's close up until they time out
        watches.endAll();
        dispatcher.shutdown();
        await(http.close(), "the embedded API server did not close");
        dispatcher.releaseResources();
        await(vertx.close(), "the embedded API server's Vert.x did not close");
    }

    @Override
    public int getPort() {
        return port;
    }

    @Override
    public String getHostName() {
        return address.getHostAddress().equals("127.0.0.1") ? "localhost" : address.getHostName();
    }

    @Override
    public Proxy toProxyAddress() {
        return new Proxy(Proxy.Type.HTTP, new InetSocketAddress(getHostName(), getPort()));
    }

    @Override
    public HttpUrl url(String path) {
        return HttpUrl.parse("http://" + getHostName() + ":" + getPort() + (path.startsWith("/") ? "" : "/") + path);
    }

    @Override
    public String toString() {
        return "ApiWebServer[" + port + "]";
    }

    /** The mock's Vert.x instance (private to it), so the process has one. */
    private Vertx parentVertx() {
        try {
            java.lang.reflect.Field f = MockWebServer.class.getDeclaredField("vertx");
            f.setAccessible(true);
            return (Vertx) f.get(this);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException(
                    "fabric8's MockWebServer has no field 'vertx' (a version other than 8.0.0?)", e);
        }
    }

    private static <T> T await(Future<T> future, String failure) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(failure, e);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException(failure, e);
        }
    }
}
