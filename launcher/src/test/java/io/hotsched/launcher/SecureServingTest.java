package io.hotsched.launcher;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SecureServingTest {

    @TempDir
    Path dir;

    private static KeyStore load(Path store, String password) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            ks.load(in, password.toCharArray());
        }
        return ks;
    }

    @Test
    void withoutFilesACertificateForThisHostIsMade() throws Exception {
        Map<String, String> props = SecureServing.prepare(
                new SecureServing.Request(
                        "0.0.0.0", 10259, Optional.empty(), Optional.empty(), SecureServing.ALWAYS_ALLOW_PATHS),
                dir.resolve("data"));
        assertEquals("10259", props.get("hotsched.securePort"));
        assertEquals("/healthz,/readyz,/livez", props.get("hotsched.authorizationAlwaysAllowPaths"));
        String password = props.get("hotsched.tlsKeystorePassword");
        KeyStore ks = load(Path.of(props.get("hotsched.tlsKeystore")), password);
        String alias = ks.aliases().nextElement();
        X509Certificate cert = (X509Certificate) ks.getCertificate(alias);
        assertEquals(cert.getIssuerX500Principal(), cert.getSubjectX500Principal());
        List<String> names = cert.getSubjectAlternativeNames().stream()
                .map(n -> String.valueOf(n.get(1)))
                .toList();
        assertTrue(names.contains("127.0.0.1") && names.contains("localhost"), names.toString());
        assertTrue(ks.getKey(alias, password.toCharArray()) != null);
    }

    @Test
    void pemFilesBecomeTheStoreInPkcs8AndPkcs1() throws Exception {
        // an RSA pair made by keytool, written out as PEM the way openssl writes it
        Map<String, String> made = SecureServing.prepare(
                new SecureServing.Request("127.0.0.1", 1, Optional.empty(), Optional.empty(), "/healthz"),
                dir.resolve("made"));
        KeyStore ks = load(Path.of(made.get("hotsched.tlsKeystore")), made.get("hotsched.tlsKeystorePassword"));
        String alias = ks.aliases().nextElement();
        X509Certificate cert = (X509Certificate) ks.getCertificate(alias);
        Key key = ks.getKey(alias, made.get("hotsched.tlsKeystorePassword").toCharArray());
        Path certPem = pem(dir.resolve("tls.crt"), "CERTIFICATE", cert.getEncoded());
        Path keyPem = pem(dir.resolve("tls.key"), "PRIVATE KEY", key.getEncoded());

        KeyStore fromPem = SecureServing.fromPem(certPem, keyPem, "pw".toCharArray());
        assertEquals(cert, fromPem.getCertificate(fromPem.aliases().nextElement()));
        assertArrayEquals(
                key.getEncoded(),
                fromPem.getKey(fromPem.aliases().nextElement(), "pw".toCharArray())
                        .getEncoded());
    }

    @Test
    void pkcs1IsWrappedAsTheJdkReadsIt() throws Exception {
        java.security.KeyPairGenerator g = java.security.KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
        byte[] pkcs8 = g.generateKeyPair().getPrivate().getEncoded();
        // the PKCS#1 key is the octet string at the end of the PKCS#8 structure
        int at = pkcs8.length;
        byte[] pkcs1 = null;
        for (int i = 20; i < 40; i++) {
            if (pkcs8[i] == 0x04 && (pkcs8[i + 1] & 0xff) == 0x82) {
                int n = ((pkcs8[i + 2] & 0xff) << 8) | (pkcs8[i + 3] & 0xff);
                if (i + 4 + n == at) {
                    pkcs1 = java.util.Arrays.copyOfRange(pkcs8, i + 4, at);
                }
            }
        }
        assertArrayEquals(pkcs8, Pkcs8.wrapRsa(pkcs1));
    }

    @Test
    void aKeyFileWithoutAKeyIsNamed() throws Exception {
        Path cert = dir.resolve("tls.crt");
        Files.writeString(cert, "not a certificate");
        IOException e = assertThrows(IOException.class, () -> SecureServing.fromPem(cert, cert, "pw".toCharArray()));
        assertTrue(e.getMessage().startsWith("--tls-cert-file " + cert), e.getMessage());
    }

    private static Path pem(Path file, String type, byte[] der) throws IOException {
        String body = Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der);
        Files.writeString(file, "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n");
        return file;
    }
}
