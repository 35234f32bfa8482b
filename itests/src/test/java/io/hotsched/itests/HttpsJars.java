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

    private HttpsJars() {}

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
        Path dir = Path.of(System.getProperty(DIR));
        Path tmp = dir.resolve("." + name);
        Files.write(tmp, jar);
        Files.move(tmp, dir.resolve(name), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return System.getProperty(URL) + name;
    }
}
