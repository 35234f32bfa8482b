package io.hotsched.itests;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * An https server on 127.0.0.1 for SchedulerPlugin URL sources: it serves the jars of a folder,
 * with a certificate made at test time (the replicas trust it through downloadTruststore).
 * Started once per test JVM, before the container; the tests in the container find it, and put
 * jars into its folder, through system properties.
 */
final class HttpsJars {

    private static final String DIR = "hotsched.itest.jars.dir";
    private static final String URL = "hotsched.itest.jars.url";

    /** Downloads held back until released, by file name; only for tests outside the container (one class loader). */
    private static final Map<String, CountDownLatch> HELD = new ConcurrentHashMap<>();

    private static final AtomicInteger WAITING = new AtomicInteger();

    private HttpsJars() {}

    /** From now on, a GET of {@code name} waits (at most 60 s) until {@link #release} of it. */
    static void hold(String name) {
        HELD.put(name, new CountDownLatch(1));
    }

    static void release(String name) {
        CountDownLatch l = HELD.remove(name);
        if (l != null) {
            l.countDown();
        }
    }

    /** How many requests have waited on a hold so far. */
    static int held() {
        return WAITING.get();
    }

    /** Starts the server unless this JVM runs one already. */
    static synchronized void start() throws IOException {
        if (System.getProperty(URL) != null) {
            return;
        }
        Path dir = Files.createTempDirectory("hotsched-itest-jars-");
        Path store = SigningKeys.get().tlsServer("jars-server", "ip:127.0.0.1");
        try {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(store)) {
                ks.load(in, SigningKeys.PASSWORD.toCharArray());
            }
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, SigningKeys.PASSWORD.toCharArray());
            SSLContext tls = SSLContext.getInstance("TLS");
            tls.init(kmf.getKeyManagers(), null, null);
            HttpsServer server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.setHttpsConfigurator(new HttpsConfigurator(tls));
            server.createContext("/", x -> {
                CountDownLatch held = HELD.get(x.getRequestURI().getPath().substring(1));
                if (held != null) {
                    WAITING.incrementAndGet();
                    try {
                        held.await(60, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                Path file =
                        dir.resolve(x.getRequestURI().getPath().substring(1)).normalize();
                if (!file.startsWith(dir) || !Files.isRegularFile(file)) {
                    x.sendResponseHeaders(404, -1);
                } else {
                    byte[] bytes = Files.readAllBytes(file);
                    x.sendResponseHeaders(200, bytes.length);
                    x.getResponseBody().write(bytes);
                }
                x.close();
            });
            // a held download waits without holding up the others
            server.setExecutor(Executors.newCachedThreadPool(r -> {
                Thread t = new Thread(r, "itest-https-jars");
                t.setDaemon(true);
                return t;
            }));
            server.start();
            System.setProperty(DIR, dir.toString());
            System.setProperty(URL, "https://127.0.0.1:" + server.getAddress().getPort() + "/");
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot start the test's https server: " + e, e);
        }
    }

    /** The truststore that trusts the server's certificate. */
    static Path truststore() throws IOException {
        return SigningKeys.get().truststore("jars-server");
    }

    /** Serves {@code jar} as {@code name} and returns its URL. */
    static String publish(String name, byte[] jar) throws IOException {
        start();
        Path dir = Path.of(System.getProperty(DIR));
        Path tmp = dir.resolve("." + name);
        Files.write(tmp, jar);
        Files.move(tmp, dir.resolve(name), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return System.getProperty(URL) + name;
    }
}
