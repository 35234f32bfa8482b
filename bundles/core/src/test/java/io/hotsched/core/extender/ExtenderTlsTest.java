package io.hotsched.core.extender;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import io.hotsched.api.framework.ExtenderException;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.core.config.ExtenderConfig;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Extenders over HTTPS with a test CA: verification, serverName, insecure, client certificates. */
class ExtenderTlsTest {

    @TempDir
    static Path dir;

    static TestCa ca;
    static TestCa other;
    static SSLContext serverTls;

    private final List<NodeInfo> nodes =
            List.of(new NodeInfo(Nodes.node("n1").cpu("4").build()));
    private final PodInfo pod = Pods.pod("p").info();

    @BeforeAll
    static void certificates() throws Exception {
        ca = new TestCa(dir, "test-ca");
        other = new TestCa(dir, "other-ca");
        serverTls = TestCa.serverContext(ca.issue("server", "dns:extender.hotsched.test,ip:127.0.0.1"), null);
        ca.issue("client", "dns:scheduler.hotsched.test");
    }

    private static ExtenderConfig config(String url, boolean enableHttps, ExtenderConfig.Tls tls) {
        return new ExtenderConfig(
                url, "filter", "", "", 0, "", enableHttps, tls, Duration.ofSeconds(5), true, List.of(), false);
    }

    private static ExtenderConfig.Tls tls(boolean insecure, String serverName, byte[] ca, byte[] cert, byte[] key) {
        return new ExtenderConfig.Tls(insecure, serverName, null, null, null, cert, key, ca);
    }

    private List<String> filter(ExtenderConfig c) throws Exception {
        return new HttpExtender(c, HttpExtender.mapper())
                .filter(pod, nodes).feasible().stream().map(NodeInfo::name).toList();
    }

    @Test
    void theServerIsVerifiedWithTheConfiguredCa() throws Exception {
        try (ExtenderServer s = new ExtenderServer(serverTls)) {
            s.answer("filter", "{\"NodeNames\":[\"n1\"]}");
            assertEquals(List.of("n1"), filter(config(s.url(), true, tls(false, null, ca.certPem(), null, null))));
            ExtenderException e = assertThrows(
                    ExtenderException.class,
                    () -> filter(config(s.url(), true, tls(false, null, other.certPem(), null, null))));
            assertTrue(e.getMessage().startsWith("Post \"" + s.url() + "filter\": "), e.getMessage());
            assertTrue(e.getMessage().contains("PKIX") || e.getMessage().contains("certification"), e.getMessage());
        }
    }

    @Test
    void serverNameIsCheckedInsteadOfTheUrlsHost() throws Exception {
        try (ExtenderServer s = new ExtenderServer(serverTls)) {
            s.answer("filter", "{\"NodeNames\":[\"n1\"]}");
            assertEquals(
                    List.of("n1"),
                    filter(config(s.url(), false, tls(false, "extender.hotsched.test", ca.certPem(), null, null))));
            ExtenderException e = assertThrows(
                    ExtenderException.class,
                    () -> filter(config(s.url(), false, tls(false, "someone-else.test", ca.certPem(), null, null))));
            assertTrue(e.getMessage().contains("not valid for tlsConfig.serverName someone-else.test"), e.getMessage());
        }
    }

    @Test
    void enableHttpsWithoutACaOrInsecureSkipsVerification() throws Exception {
        try (ExtenderServer s = new ExtenderServer(serverTls)) {
            s.answer("filter", "{\"NodeNames\":[\"n1\"]}");
            assertEquals(List.of("n1"), filter(config(s.url(), true, null)));
            assertEquals(List.of("n1"), filter(config(s.url(), false, tls(true, null, null, null, null))));
            assertThrows(
                    ExtenderException.class,
                    () -> filter(config(s.url(), false, null)),
                    "the JDK's CAs do not know the test CA");
        }
    }

    @Test
    void aClientCertificateIsPresentedWhenTheServerAsksForOne() throws Exception {
        SSLContext needsClient =
                TestCa.serverContext(Path.of(dir.resolve("server.p12").toString()), ca);
        try (ExtenderServer s = new ExtenderServer(new HttpsConfigurator(needsClient) {
            @Override
            public void configure(HttpsParameters params) {
                SSLParameters p = getSSLContext().getDefaultSSLParameters();
                p.setNeedClientAuth(true);
                params.setSSLParameters(p);
            }
        })) {
            s.answer("filter", "{\"NodeNames\":[\"n1\"]}");
            assertEquals(
                    List.of("n1"),
                    filter(config(
                            s.url(),
                            true,
                            tls(false, null, ca.certPem(), ca.chainPem("client"), ca.keyPem("client")))));
            assertThrows(
                    ExtenderException.class,
                    () -> filter(config(s.url(), true, tls(false, null, ca.certPem(), null, null))));
        }
    }
}
