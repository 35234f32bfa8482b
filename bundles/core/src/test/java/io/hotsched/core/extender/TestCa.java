package io.hotsched.core.extender;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** A throw-away certificate authority made with the JDK's keytool, and certificates it signs. */
final class TestCa {

    private static final String PASS = "changeit";
    private final Path dir;
    final String name;

    TestCa(Path dir, String name) throws Exception {
        this.dir = dir;
        this.name = name;
        keytool(
                "-genkeypair",
                "-keystore",
                store(name),
                "-storetype",
                "PKCS12",
                "-alias",
                "ca",
                "-dname",
                "CN=" + name,
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-ext",
                "bc:c",
                "-validity",
                "2");
        keytool(
                "-exportcert",
                "-rfc",
                "-keystore",
                store(name),
                "-alias",
                "ca",
                "-file",
                dir.resolve(name + ".pem").toString());
    }

    byte[] certPem() throws IOException {
        return Files.readAllBytes(dir.resolve(name + ".pem"));
    }

    /** A key and a certificate for {@code cn} signed by this CA, with the given subject alternative names. */
    Path issue(String cn, String san) throws Exception {
        String ks = store(cn);
        keytool(
                "-genkeypair",
                "-keystore",
                ks,
                "-storetype",
                "PKCS12",
                "-alias",
                "leaf",
                "-dname",
                "CN=" + cn,
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-validity",
                "2");
        String csr = dir.resolve(cn + ".csr").toString();
        String pem = dir.resolve(cn + ".crt").toString();
        keytool("-certreq", "-keystore", ks, "-alias", "leaf", "-file", csr);
        keytool(
                "-gencert",
                "-keystore",
                store(name),
                "-alias",
                "ca",
                "-infile",
                csr,
                "-outfile",
                pem,
                "-rfc",
                "-ext",
                "SAN=" + san,
                "-validity",
                "2");
        keytool(
                "-importcert",
                "-noprompt",
                "-keystore",
                ks,
                "-alias",
                "ca",
                "-file",
                dir.resolve(name + ".pem").toString());
        keytool("-importcert", "-keystore", ks, "-alias", "leaf", "-file", pem);
        return Path.of(ks);
    }

    /** The leaf's certificate chain as PEM. */
    byte[] chainPem(String cn) throws IOException {
        return Files.readAllBytes(dir.resolve(cn + ".crt"));
    }

    /** The leaf's private key as PKCS#8 PEM. */
    byte[] keyPem(String cn) throws Exception {
        KeyStore ks = load(Path.of(store(cn)));
        byte[] der = ks.getKey("leaf", PASS.toCharArray()).getEncoded();
        String b64 = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(der);
        return ("-----BEGIN PRIVATE KEY-----\n" + b64 + "\n-----END PRIVATE KEY-----\n")
                .getBytes(StandardCharsets.US_ASCII);
    }

    /** A server context presenting {@code leafStore}'s certificate; trusting {@code clients} for client certificates when not null. */
    static SSLContext serverContext(Path leafStore, TestCa clients) throws Exception {
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(load(leafStore), PASS.toCharArray());
        TrustManagerFactory tmf = null;
        if (clients != null) {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry(
                    "clients",
                    CertificateFactory.getInstance("X.509")
                            .generateCertificate(new ByteArrayInputStream(clients.certPem())));
            tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
        }
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf.getKeyManagers(), tmf == null ? null : tmf.getTrustManagers(), null);
        return ctx;
    }

    private static KeyStore load(Path p) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(p)) {
            ks.load(in, PASS.toCharArray());
        }
        return ks;
    }

    private String store(String cn) {
        return dir.resolve(cn + ".p12").toString();
    }

    private static void keytool(String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        cmd.addAll(List.of(args));
        cmd.addAll(List.of("-storepass", PASS));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IllegalStateException("keytool " + String.join(" ", args) + " failed: " + out);
        }
    }
}
