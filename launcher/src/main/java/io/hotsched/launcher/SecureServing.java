package io.hotsched.launcher;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The key store of the secure port, made before the platform starts: from the PEM files of
 * {@code --tls-cert-file}/{@code --tls-private-key-file}, or, as kube-scheduler does without them,
 * a self-signed certificate for this host. The HTTP service reads it as PKCS#12 from {@code data/}.
 */
public final class SecureServing {

    /** kube-scheduler's default of {@code --authorization-always-allow-paths}. */
    public static final String ALWAYS_ALLOW_PATHS = "/healthz,/readyz,/livez";

    static final String STORE = "serving.p12";
    private static final String ALIAS = "hotsched-serving";
    private static final Pattern PEM = Pattern.compile("-----BEGIN ([A-Z ]+)-----([^-]+)-----END \\1-----");

    /** What the command line asked for. */
    public record Request(
            String bindAddress, int port, Optional<Path> certFile, Optional<Path> keyFile, String alwaysAllowPaths) {}

    private SecureServing() {}

    /**
     * Writes the key store to {@code dataDir} and returns the framework properties that tell the
     * bundles about secure serving.
     *
     * @throws IOException naming the file that cannot be read or the step that failed
     */
    static Map<String, String> prepare(Request r, Path dataDir) throws IOException {
        Files.createDirectories(dataDir);
        Path store = dataDir.resolve(STORE);
        Files.deleteIfExists(store);
        String password = randomPassword();
        if (r.certFile().isPresent()) {
            KeyStore ks = fromPem(r.certFile().get(), r.keyFile().orElseThrow(), password.toCharArray());
            try (OutputStream out = Files.newOutputStream(store)) {
                ks.store(out, password.toCharArray());
            } catch (GeneralSecurityException e) {
                throw new IOException("cannot write the key store " + store + ": " + e.getMessage(), e);
            }
        } else {
            selfSigned(store, password, r.bindAddress());
        }
        Map<String, String> props = new LinkedHashMap<>();
        props.put("hotsched.securePort", Integer.toString(r.port()));
        props.put("hotsched.bindAddress", r.bindAddress());
        props.put("hotsched.tlsKeystore", store.toString());
        props.put("hotsched.tlsKeystorePassword", password);
        props.put("hotsched.authorizationAlwaysAllowPaths", r.alwaysAllowPaths());
        return props;
    }

    /** A PKCS#12 store holding the key of {@code keyFile} with the chain of {@code certFile}. */
    static KeyStore fromPem(Path certFile, Path keyFile, char[] password) throws IOException {
        List<Certificate> chain;
        try (InputStream in = Files.newInputStream(certFile)) {
            chain = new ArrayList<>(CertificateFactory.getInstance("X.509").generateCertificates(in));
        } catch (GeneralSecurityException e) {
            throw new IOException("--tls-cert-file " + certFile + ": not a PEM certificate: " + e.getMessage(), e);
        }
        if (chain.isEmpty()) {
            throw new IOException("--tls-cert-file " + certFile + ": no certificate in it");
        }
        PrivateKey key = privateKey(keyFile, chain.get(0).getPublicKey().getAlgorithm());
        try {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setKeyEntry(ALIAS, key, password, chain.toArray(Certificate[]::new));
            return ks;
        } catch (GeneralSecurityException e) {
            throw new IOException(
                    "--tls-private-key-file " + keyFile + " does not go with --tls-cert-file " + certFile + ": "
                            + e.getMessage(),
                    e);
        }
    }

    private static PrivateKey privateKey(Path keyFile, String algorithm) throws IOException {
        Matcher m = PEM.matcher(Files.readString(keyFile, StandardCharsets.US_ASCII));
        while (m.find()) {
            String type = m.group(1);
            byte[] der = Base64.getMimeDecoder().decode(m.group(2));
            if (type.equals("RSA PRIVATE KEY")) {
                der = Pkcs8.wrapRsa(der);
            } else if (!type.equals("PRIVATE KEY")) {
                continue;
            }
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (GeneralSecurityException e) {
                throw new IOException(
                        "--tls-private-key-file " + keyFile + ": not a " + algorithm + " key: " + e.getMessage(), e);
            }
        }
        throw new IOException("--tls-private-key-file " + keyFile
                + ": no \"PRIVATE KEY\" (PKCS#8) or \"RSA PRIVATE KEY\" (PKCS#1) block in it;"
                + " an \"EC PRIVATE KEY\" converts with: openssl pkcs8 -topk8 -nocrypt -in KEY");
    }

    /** A self-signed certificate for this host, its loopback address and the bind address. */
    private static void selfSigned(Path store, String password, String bindAddress) throws IOException {
        Set<String> names = new LinkedHashSet<>(List.of("dns:localhost", "ip:127.0.0.1"));
        String host = InetAddress.getLocalHost().getHostName();
        names.add("dns:" + host);
        try {
            names.add("ip:" + InetAddress.getLocalHost().getHostAddress());
        } catch (IOException e) {
            // a host name that does not resolve: the certificate names the host only
        }
        if (!bindAddress.equals("0.0.0.0") && !bindAddress.equals("::")) {
            names.add("ip:" + bindAddress);
        }
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        List<String> command = List.of(
                keytool.toString(),
                "-genkeypair",
                "-alias",
                ALIAS,
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-validity",
                "365",
                "-dname",
                "CN=" + host + "@" + System.currentTimeMillis() / 1000,
                "-ext",
                "SAN=" + String.join(",", names),
                "-storetype",
                "PKCS12",
                "-keystore",
                store.toString(),
                "-storepass",
                password);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        try (InputStream in = p.getInputStream()) {
            in.transferTo(output);
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException("cannot make a self-signed certificate with " + keytool + ": "
                        + output.toString(StandardCharsets.UTF_8).strip());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while making the self-signed certificate", e);
        }
    }

    private static String randomPassword() {
        byte[] b = new byte[18];
        new SecureRandom().nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }
}
