package io.hotsched.core.extender;

import io.hotsched.core.config.ExtenderConfig;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * The TLS settings of an extender, as upstream's transport reads {@code tlsConfig}: a CA (data over
 * file) to verify the server, a client certificate and key, {@code insecure}, and {@code serverName}
 * to verify the server's certificate against instead of the URL's host. {@code enableHTTPS} with no
 * CA is insecure, as upstream.
 */
final class ExtenderTls {

    private ExtenderTls() {}

    /** The context for {@code config}, or null when the JDK's default context serves (no TLS settings). */
    static SSLContext context(ExtenderConfig config) throws GeneralSecurityException, IOException {
        ExtenderConfig.Tls tls = config.tls();
        byte[] ca = tls == null ? null : data(tls.caData(), tls.caFile());
        boolean insecure = tls != null && tls.insecure() || config.enableHTTPS() && ca == null;
        byte[] cert = tls == null ? null : data(tls.certData(), tls.certFile());
        byte[] key = tls == null ? null : data(tls.keyData(), tls.keyFile());
        String serverName =
                tls == null || tls.serverName() == null || tls.serverName().isEmpty() ? null : tls.serverName();
        if (!insecure && ca == null && cert == null && serverName == null) {
            return null;
        }
        TrustManager trust;
        if (insecure) {
            trust = new TrustAll();
        } else {
            X509TrustManager pkix = pkix(ca);
            trust = serverName == null ? pkix : new ForServerName(pkix, serverName);
        }
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(cert == null ? null : keyManagers(cert, key), new TrustManager[] {trust}, null);
        return ctx;
    }

    private static byte[] data(byte[] data, String file) throws IOException {
        if (data != null) {
            return data;
        }
        return file == null || file.isEmpty() ? null : Files.readAllBytes(Path.of(file));
    }

    private static X509TrustManager pkix(byte[] caPem) throws GeneralSecurityException, IOException {
        KeyStore ks = null;
        if (caPem != null) {
            ks = KeyStore.getInstance(KeyStore.getDefaultType());
            ks.load(null, null);
            int i = 0;
            for (Certificate c : certificates(caPem)) {
                ks.setCertificateEntry("ca-" + i++, c);
            }
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ks);
        for (TrustManager t : tmf.getTrustManagers()) {
            if (t instanceof X509TrustManager x) {
                return x;
            }
        }
        throw new GeneralSecurityException("no X.509 trust manager");
    }

    private static List<Certificate> certificates(byte[] pem) throws CertificateException {
        List<Certificate> out = new ArrayList<>(
                CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(pem)));
        if (out.isEmpty()) {
            throw new CertificateException("no PEM certificate found");
        }
        return out;
    }

    private static KeyManager[] keyManagers(byte[] certPem, byte[] keyPem)
            throws GeneralSecurityException, IOException {
        if (keyPem == null) {
            throw new GeneralSecurityException("tlsConfig has a client certificate but no key (keyData or keyFile)");
        }
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        char[] none = new char[0];
        ks.setKeyEntry("client", privateKey(keyPem), none, certificates(certPem).toArray(new Certificate[0]));
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, none);
        return kmf.getKeyManagers();
    }

    /** A PKCS#8 ("PRIVATE KEY") or PKCS#1 RSA ("RSA PRIVATE KEY") PEM key. */
    static PrivateKey privateKey(byte[] pem) throws GeneralSecurityException {
        String text = new String(pem, StandardCharsets.US_ASCII);
        boolean pkcs1 = text.contains("-----BEGIN RSA PRIVATE KEY-----");
        if (!pkcs1 && !text.contains("-----BEGIN PRIVATE KEY-----")) {
            throw new GeneralSecurityException(
                    "the client key must be PEM \"PRIVATE KEY\" (PKCS#8) or \"RSA PRIVATE KEY\"; "
                            + "convert others with: openssl pkcs8 -topk8 -nocrypt -in key.pem");
        }
        String b64 = text.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        byte[] der = Base64.getDecoder().decode(b64);
        if (pkcs1) {
            return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(pkcs1ToPkcs8(der)));
        }
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
        for (String alg : List.of("RSA", "EC", "Ed25519")) {
            try {
                return KeyFactory.getInstance(alg).generatePrivate(spec);
            } catch (GeneralSecurityException tryNext) {
                // the PEM does not say the algorithm: try the ones TLS client keys use
            }
        }
        throw new GeneralSecurityException("the client key is neither an RSA, EC nor Ed25519 PKCS#8 key");
    }

    /** Wraps a PKCS#1 RSAPrivateKey in a PKCS#8 PrivateKeyInfo (version 0, rsaEncryption, NULL). */
    private static byte[] pkcs1ToPkcs8(byte[] pkcs1) {
        byte[] algorithm = {
            0x30,
            0x0d,
            0x06,
            0x09,
            0x2a,
            (byte) 0x86,
            0x48,
            (byte) 0x86,
            (byte) 0xf7,
            0x0d,
            0x01,
            0x01,
            0x01,
            0x05,
            0x00
        };
        byte[] version = {0x02, 0x01, 0x00};
        byte[] octets = tlv(0x04, pkcs1);
        byte[] body = new byte[version.length + algorithm.length + octets.length];
        System.arraycopy(version, 0, body, 0, version.length);
        System.arraycopy(algorithm, 0, body, version.length, algorithm.length);
        System.arraycopy(octets, 0, body, version.length + algorithm.length, octets.length);
        return tlv(0x30, body);
    }

    private static byte[] tlv(int tag, byte[] value) {
        int n = value.length;
        byte[] len = n < 0x80
                ? new byte[] {(byte) n}
                : n < 0x100
                        ? new byte[] {(byte) 0x81, (byte) n}
                        : n < 0x10000
                                ? new byte[] {(byte) 0x82, (byte) (n >> 8), (byte) n}
                                : new byte[] {(byte) 0x83, (byte) (n >> 16), (byte) (n >> 8), (byte) n};
        byte[] out = new byte[1 + len.length + n];
        out[0] = (byte) tag;
        System.arraycopy(len, 0, out, 1, len.length);
        System.arraycopy(value, 0, out, 1 + len.length, n);
        return out;
    }

    /**
     * A trust manager that checks the chain the same way whatever the connection: being an
     * {@link X509ExtendedTrustManager}, the JDK does not add its own host name check against the
     * URL, so the name is what the subclass decides.
     */
    private abstract static class SameForEveryConnection extends X509ExtendedTrustManager {
        @Override
        public final void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            checkClientTrusted(chain, authType);
        }

        @Override
        public final void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            checkServerTrusted(chain, authType);
        }

        @Override
        public final void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            checkClientTrusted(chain, authType);
        }

        @Override
        public final void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            checkServerTrusted(chain, authType);
        }
    }

    /** {@code insecure}: any certificate, any name (upstream's InsecureSkipVerify). */
    private static final class TrustAll extends SameForEveryConnection {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }

    /** The chain is checked by the CA; the name against {@code serverName}, not the URL's host. */
    private static final class ForServerName extends SameForEveryConnection {
        private final X509TrustManager pkix;
        private final String serverName;

        ForServerName(X509TrustManager pkix, String serverName) {
            this.pkix = pkix;
            this.serverName = serverName.toLowerCase(Locale.ROOT);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            pkix.checkServerTrusted(chain, authType);
            var names = chain[0].getSubjectAlternativeNames();
            if (names != null) {
                for (List<?> n : names) {
                    if (Integer.valueOf(2).equals(n.get(0))
                            && matches(String.valueOf(n.get(1)).toLowerCase(Locale.ROOT))) {
                        return;
                    }
                }
            }
            throw new CertificateException(
                    "the server's certificate is not valid for tlsConfig.serverName " + serverName);
        }

        private boolean matches(String dns) {
            if (dns.startsWith("*.")) {
                int dot = serverName.indexOf('.');
                return dot > 0 && serverName.substring(dot + 1).equals(dns.substring(2));
            }
            return dns.equals(serverName);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            pkix.checkClientTrusted(chain, authType);
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return pkix.getAcceptedIssuers();
        }
    }
}
