package io.hotsched.kube.delivery;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** The TLS trust of https downloads: the JDK's CA certificates, or those of a keystore (a private CA). */
public final class DownloadTrust {

    private DownloadTrust() {}

    /** @param truststore a PKCS12 or JKS file, or empty for the JDK's default trust */
    public static SSLContext context(String truststore, String password) throws IOException {
        try {
            if (truststore == null || truststore.isBlank()) {
                return SSLContext.getDefault();
            }
            Path path = Path.of(truststore.strip());
            KeyStore ks = KeyStore.getInstance(path.toString().endsWith(".jks") ? "JKS" : "PKCS12");
            try (InputStream in = Files.newInputStream(path)) {
                ks.load(in, password == null ? new char[0] : password.toCharArray());
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(ks);
            SSLContext tls = SSLContext.getInstance("TLS");
            tls.init(null, tmf.getTrustManagers(), null);
            return tls;
        } catch (GeneralSecurityException e) {
            throw new IOException("downloadTruststore " + truststore + ": " + e.getMessage(), e);
        }
    }
}
