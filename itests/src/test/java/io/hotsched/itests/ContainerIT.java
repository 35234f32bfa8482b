package io.hotsched.itests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The container image that image/ builds (-Dcontainer), run with podman against a standalone
 * embedded API server ({@code bin/hotsched apiserver} of the built distribution) on this machine:
 * it schedules pods, and serves its probes and {@code /metrics} over TLS on {@code --secure-port}
 * with authentication and authorization delegated to that server's TokenReview and
 * SubjectAccessReview, as a pod of the shipped Deployment does.
 */
class ContainerIT {

    private static final int NODES = 3;
    /** 4 cpus a node, 250m a pod: room for all. */
    private static final int PODS = 24;

    @TempDir
    Path work;

    private ApiServerProcess api;
    private Podman podman;
    private String image;
    private Podman.Container container;

    @AfterEach
    void stopAll() throws Exception {
        try {
            if (container != null) {
                container.close();
            }
        } finally {
            try {
                if (image != null) {
                    podman.removeImage(image);
                }
            } finally {
                if (api != null) {
                    api.close();
                }
            }
        }
    }

    @Test
    void theImageSchedulesAndServesItsEndpointsOverTlsBehindTheApiServersReviews() throws Exception {
        podman = Podman.onThisMachine();
        long t0 = System.nanoTime();
        image = podman.load(Path.of(System.getProperty("hotsched.image.tar")));
        long loaded = ms(t0);
        assertEquals("65534:65534", podman.inspect(image, "{{.Config.User}}"), "the image's user");
        assertEquals(
                "[/opt/hotsched/bin/hotsched --no-shell]",
                podman.inspect(image, "{{.Config.Entrypoint}}"),
                "the image's entrypoint");

        api = ApiServerProcess.start(work);
        RawApi raw = new RawApi(api.url());
        for (String ns : List.of("kube-system", "monitoring", "load")) {
            raw.post("/api/v1/namespaces", object("v1", "Namespace", null, ns, ""));
        }
        for (int i = 0; i < NODES; i++) {
            raw.post("/api/v1/nodes", node("n-" + i));
        }
        int securePort = freePort();
        Path log = work.resolve("container.log");
        t0 = System.nanoTime();
        container = podman.start(
                "hotsched-containerit-" + ProcessHandle.current().pid(),
                image,
                // honoured by bin/hotsched: the GC it names is the one the JVM reports
                Map.of("HOTSCHED_OPTS", "-XX:+UseSerialGC -Xlog:gc"),
                log,
                "--master",
                raw.base(),
                "--secure-port",
                Integer.toString(securePort));

        X509Certificate served = awaitCertificate(securePort, log);
        long serving = ms(t0);
        assertEquals(served.getSubjectX500Principal(), served.getIssuerX500Principal(), "a self-signed certificate");
        Secure secure = new Secure(securePort, served);
        awaitContainer(
                "/readyz to answer 200", log, () -> secure.get("/readyz", null).statusCode() == 200);
        for (String probe : List.of("/healthz", "/readyz", "/livez")) {
            HttpResponse<String> r = secure.get(probe, null);
            assertEquals(200, r.statusCode(), probe + ": " + r.body());
            assertEquals("ok", r.body(), probe);
        }
        assertTrue(logLines(log).stream().anyMatch(l -> l.contains("Using Serial")), "HOTSCHED_OPTS not applied");

        for (int i = 0; i < PODS; i++) {
            raw.post("/api/v1/namespaces/load/pods", pod("p-" + i));
        }
        awaitContainer("all " + PODS + " pods bound", log, () -> bound(raw) == PODS);
        long scheduled = ms(t0);

        HttpResponse<String> anonymous = secure.get("/metrics", null);
        assertEquals(403, anonymous.statusCode(), anonymous.body());
        assertTrue(anonymous.body().contains("system:anonymous"), anonymous.body());
        assertEquals(401, secure.get("/metrics", "not-a-token").statusCode(), "an unknown token");
        HttpResponse<String> unbound = secure.get("/metrics", token(raw, "outsider"));
        assertEquals(403, unbound.statusCode(), "a ServiceAccount without the role: " + unbound.body());

        String prometheus = token(raw, "prometheus");
        raw.post(
                "/apis/rbac.authorization.k8s.io/v1/clusterroles",
                object(
                        "rbac.authorization.k8s.io/v1",
                        "ClusterRole",
                        null,
                        "hotsched-metrics-reader",
                        ",\"rules\":[{\"nonResourceURLs\":[\"/metrics\"],\"verbs\":[\"get\"]}]"));
        raw.post(
                "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings",
                object(
                        "rbac.authorization.k8s.io/v1",
                        "ClusterRoleBinding",
                        null,
                        "prometheus-hotsched",
                        ",\"roleRef\":{\"apiGroup\":\"rbac.authorization.k8s.io\",\"kind\":\"ClusterRole\","
                                + "\"name\":\"hotsched-metrics-reader\"},\"subjects\":[{\"kind\":\"ServiceAccount\","
                                + "\"name\":\"prometheus\",\"namespace\":\"monitoring\"}]"));
        HttpResponse<String> metrics = secure.get("/metrics", prometheus);
        assertEquals(200, metrics.statusCode(), metrics.body());
        assertTrue(
                metrics.body()
                        .lines()
                        .anyMatch(l -> l.startsWith("scheduler_schedule_attempts_total{")
                                && l.contains("result=\"scheduled\"")
                                && l.endsWith(" " + PODS)),
                "the metrics count " + PODS + " scheduled pods:\n" + metrics.body());

        t0 = System.nanoTime();
        container.close();
        System.out.printf(
                "scenario container: image loaded in %d ms; TLS served %d ms after podman run, %d pods bound"
                        + " after %d ms; stopped in %d ms%n",
                loaded, serving, PODS, scheduled, ms(t0));
        container = null;
    }

    /** The secure port's certificate, as soon as it completes a handshake (trusting anything). */
    private X509Certificate awaitCertificate(int port, Path log) throws Exception {
        X509Certificate[] served = new X509Certificate[1];
        awaitContainer("a TLS handshake on port " + port, log, () -> {
            SSLContext any = SSLContext.getInstance("TLS");
            any.init(null, new TrustManager[] {new TrustAnything()}, null);
            try (SSLSocket s = (SSLSocket) any.getSocketFactory().createSocket("127.0.0.1", port)) {
                s.startHandshake();
                Certificate[] chain = s.getSession().getPeerCertificates();
                served[0] = (X509Certificate) chain[0];
                return true;
            } catch (IOException notYet) {
                return false;
            }
        });
        return served[0];
    }

    /** HTTPS to 127.0.0.1 that trusts only {@code served}, hostname checked (its SANs name 127.0.0.1). */
    private static final class Secure {
        private final String base;
        private final HttpClient http;

        Secure(int port, X509Certificate served) throws Exception {
            KeyStore trusted = KeyStore.getInstance("PKCS12");
            trusted.load(null, null);
            trusted.setCertificateEntry("served", served);
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trusted);
            SSLContext tls = SSLContext.getInstance("TLS");
            tls.init(null, tmf.getTrustManagers(), null);
            this.base = "https://127.0.0.1:" + port;
            this.http = HttpClient.newBuilder()
                    .sslContext(tls)
                    .connectTimeout(Duration.ofSeconds(5))
                    .build();
        }

        HttpResponse<String> get(String path, String token) throws IOException, InterruptedException {
            HttpRequest.Builder b =
                    HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
            if (token != null) {
                b.header("Authorization", "Bearer " + token);
            }
            return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        }
    }

    /** Only for learning which certificate the server presents; nothing is sent over it. */
    private static final class TrustAnything implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }

    private static String token(RawApi raw, String serviceAccount) throws Exception {
        raw.post(
                "/api/v1/namespaces/monitoring/serviceaccounts",
                object("v1", "ServiceAccount", "monitoring", serviceAccount, ""));
        return raw.post(
                        "/api/v1/namespaces/monitoring/serviceaccounts/" + serviceAccount + "/token",
                        "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"TokenRequest\",\"spec\":{}}")
                .path("status")
                .path("token")
                .asText();
    }

    private static long bound(RawApi raw) throws Exception {
        long n = 0;
        for (JsonNode p : raw.get("/api/v1/namespaces/load/pods").path("items")) {
            if (!p.path("spec").path("nodeName").asText("").isEmpty()) {
                n++;
            }
        }
        return n;
    }

    /** A JSON object; {@code rest} is appended after its metadata (empty, or starting with a comma). */
    private static String object(String apiVersion, String kind, String namespace, String name, String rest) {
        String ns = namespace == null ? "" : ",\"namespace\":\"" + namespace + "\"";
        return "{\"apiVersion\":\"" + apiVersion + "\",\"kind\":\"" + kind + "\",\"metadata\":{\"name\":\"" + name
                + "\"" + ns + "}" + rest + "}";
    }

    private static String node(String name) {
        String r = "{\"cpu\":\"4\",\"memory\":\"16Gi\",\"pods\":\"110\"}";
        return object(
                "v1",
                "Node",
                null,
                name,
                ",\"status\":{\"capacity\":" + r + ",\"allocatable\":" + r
                        + ",\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}");
    }

    private static String pod(String name) {
        return object(
                "v1",
                "Pod",
                null,
                name,
                ",\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.10\","
                        + "\"resources\":{\"requests\":{\"cpu\":\"250m\",\"memory\":\"64Mi\"}}}]}");
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static long ms(long since) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
    }

    @FunctionalInterface
    private interface Check {
        boolean holds() throws Exception;
    }

    /** {@link #await} while the container runs; its output in the failure when it stopped. */
    private void awaitContainer(String what, Path log, Check check) throws Exception {
        await(what, log, () -> {
            if (!container.isRunning()) {
                throw new AssertionError("the container stopped (exit " + container.awaitExit(5) + ") before " + what
                        + ":\n" + String.join("\n", logLines(log)));
            }
            return check.holds();
        });
    }

    /** Polls {@code check} every 100 ms for at most 120 s; the failure shows the end of {@code log}. */
    private static void await(String what, Path log, Check check) throws Exception {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!check.holds()) {
            if (System.nanoTime() > until) {
                List<String> lines = logLines(log);
                throw new AssertionError("waited 120 s for " + what + "; " + log.getFileName() + " ends:\n"
                        + String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size())));
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
    }

    private static List<String> logLines(Path log) throws IOException {
        if (!Files.exists(log)) {
            return List.of();
        }
        try (Stream<String> lines = Files.lines(log, StandardCharsets.ISO_8859_1)) {
            return lines.toList();
        }
    }
}
