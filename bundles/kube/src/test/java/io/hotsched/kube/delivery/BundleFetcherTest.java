package io.hotsched.kube.delivery;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.hotsched.embedded.EmbeddedApiServer;
import io.hotsched.testing.TestSigners;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where a SchedulerPlugin's jar comes from: an https server of the test's own (a self-signed
 * certificate made with keytool, trusted through downloadTruststore), and ConfigMaps and Secrets
 * of the embedded API server over HTTP; every failure a refusal naming the source.
 */
class BundleFetcherTest {

    static final String PASSWORD = "test-pass";
    static final byte[] JAR = "pretend this is a jar".getBytes(StandardCharsets.UTF_8);

    @TempDir
    static Path dir;

    static HttpsServer https;
    static String base;
    static SSLContext trusting;
    static EmbeddedApiServer api;
    static final CountDownLatch RELEASE_SLOW = new CountDownLatch(1);

    @BeforeAll
    static void servers() throws Exception {
        TestSigners keys = TestSigners.create(dir.resolve("keys"), PASSWORD);
        Path serverStore = keys.tlsServer("plugins-server", "ip:127.0.0.1");
        Path trust = keys.truststore("plugins-server");
        trusting = DownloadTrust.context(trust.toString(), PASSWORD);

        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(serverStore)) {
            ks.load(in, PASSWORD.toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, PASSWORD.toCharArray());
        SSLContext serverTls = SSLContext.getInstance("TLS");
        serverTls.init(kmf.getKeyManagers(), null, null);
        https = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        https.setHttpsConfigurator(new HttpsConfigurator(serverTls));
        https.createContext("/plugin.jar", x -> {
            x.sendResponseHeaders(200, JAR.length);
            x.getResponseBody().write(JAR);
            x.close();
        });
        https.createContext("/slow.jar", x -> {
            // the headers and a first byte at once, then nothing: only a deadline on the whole download ends it
            x.sendResponseHeaders(200, 0);
            x.getResponseBody().write('P');
            x.getResponseBody().flush();
            try {
                RELEASE_SLOW.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            x.close();
        });
        https.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        https.start();
        base = "https://127.0.0.1:" + https.getAddress().getPort();

        api = new EmbeddedApiServer().start(0);
        api.client()
                .namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName("plugins")
                        .endMetadata()
                        .build())
                .create();
        api.client()
                .configMaps()
                .inNamespace("plugins")
                .resource(new ConfigMapBuilder()
                        .withNewMetadata()
                        .withName("jars")
                        .endMetadata()
                        .withBinaryData(Map.of("a.jar", Base64.getEncoder().encodeToString(JAR)))
                        .build())
                .create();
        api.client()
                .secrets()
                .inNamespace("plugins")
                .resource(new SecretBuilder()
                        .withNewMetadata()
                        .withName("jars")
                        .endMetadata()
                        .withData(Map.of("a.jar", Base64.getEncoder().encodeToString(JAR)))
                        .build())
                .create();
    }

    @AfterAll
    static void stop() throws Exception {
        RELEASE_SLOW.countDown();
        https.stop(0);
        api.close();
    }

    private static BundleFetcher fetcher(SSLContext tls, long maxBytes) {
        return new BundleFetcher(api.client(), tls, Duration.ofSeconds(1), maxBytes);
    }

    private static PluginSpec.Source url(String path) {
        return new PluginSpec.Source(base + path, null, null, null, null);
    }

    private static Refusal refused(BundleFetcher f, PluginSpec.Source s) {
        return assertThrows(Refusal.class, () -> f.fetch(s));
    }

    @Test
    void anHttpsUrlIsDownloadedWithTheConfiguredTrust() throws Exception {
        assertArrayEquals(JAR, fetcher(trusting, 1024).fetch(url("/plugin.jar")));
    }

    @Test
    void aServerTheTrustDoesNotCoverIsRefused() throws Exception {
        Refusal r = refused(fetcher(SSLContext.getDefault(), 1024), url("/plugin.jar"));
        assertTrue(r.getMessage().startsWith("GET " + base + "/plugin.jar failed: "), r.getMessage());
        assertTrue(r.getMessage().contains("SSLHandshakeException"), r.getMessage());
    }

    @Test
    void unreachableMissingSlowAndTooLargeAreRefused() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        Refusal down = refused(
                fetcher(trusting, 1024),
                new PluginSpec.Source("https://127.0.0.1:" + closed + "/x.jar", null, null, null, null));
        assertTrue(down.passing() && down.getMessage().contains("ConnectException"), down.getMessage());
        Refusal missing = refused(fetcher(trusting, 1024), url("/nope.jar"));
        assertTrue(missing.getMessage().endsWith("answered HTTP 404"), missing.getMessage());
        assertFalse(missing.passing());
        Refusal slow = refused(fetcher(trusting, 1024), url("/slow.jar"));
        assertTrue(slow.passing() && slow.getMessage().contains("no answer within 1 s"), slow.getMessage());
        Refusal large = refused(fetcher(trusting, 4), url("/plugin.jar"));
        assertTrue(large.getMessage().contains("larger than maxBundleBytes (4)"), large.getMessage());
    }

    @Test
    void configMapBinaryDataAndSecretDataAreRead() throws Exception {
        BundleFetcher f = fetcher(trusting, 1024);
        assertArrayEquals(JAR, f.fetch(new PluginSpec.Source(null, "ConfigMap", "plugins", "jars", "a.jar")));
        assertArrayEquals(JAR, f.fetch(new PluginSpec.Source(null, "Secret", "plugins", "jars", "a.jar")));
        Refusal gone = refused(f, new PluginSpec.Source(null, "ConfigMap", "plugins", "nope", "a.jar"));
        assertTrue(gone.getMessage().equals("ConfigMap plugins/nope not found"), gone.getMessage());
        Refusal key = refused(f, new PluginSpec.Source(null, "ConfigMap", "plugins", "jars", "b.jar"));
        assertTrue(key.getMessage().equals("ConfigMap plugins/jars has no key b.jar in binaryData"), key.getMessage());
    }
}
