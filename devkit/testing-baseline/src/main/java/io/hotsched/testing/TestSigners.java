package io.hotsched.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Signing keys made at test time with the JDK's keytool (EC P-256, self-signed, valid two days),
 * a truststore of some of their certificates, and jars signed with the JDK's jarsigner: so that
 * no private key is ever committed.
 */
public final class TestSigners {

    private final Path dir;
    private final String password;

    private TestSigners(Path dir, String password) {
        this.dir = dir;
        this.password = password;
    }

    /** The keys already made in {@code dir}. */
    public static TestSigners in(Path dir, String password) {
        return new TestSigners(dir, password);
    }

    /** Makes a key pair for each alias (subject {@code CN=alias,O=hotsched tests}) in {@code dir}. */
    public static TestSigners create(Path dir, String password, String... aliases) throws IOException {
        TestSigners s = new TestSigners(Files.createDirectories(dir), password);
        for (String alias : aliases) {
            s.keyPair(s.keystore(), alias, "CN=" + alias + ",O=hotsched tests");
        }
        return s;
    }

    /** A PKCS12 truststore (same password) of the certificates of {@code aliases}. */
    public Path truststore(String... aliases) throws IOException {
        Path trust = dir.resolve("trust-" + String.join("-", aliases) + ".p12");
        if (Files.exists(trust)) {
            return trust;
        }
        for (String alias : aliases) {
            Path cert = dir.resolve(alias + ".cer");
            keytool(
                    "-exportcert",
                    "-alias",
                    alias,
                    "-keystore",
                    keystore().toString(),
                    "-storepass",
                    password,
                    "-file",
                    cert.toString());
            keytool(
                    "-importcert",
                    "-noprompt",
                    "-alias",
                    alias,
                    "-file",
                    cert.toString(),
                    "-storetype",
                    "PKCS12",
                    "-keystore",
                    trust.toString(),
                    "-storepass",
                    password);
        }
        return trust;
    }

    /**
     * A PKCS12 keystore (same password) holding one self-signed TLS server key {@code alias} for
     * {@code subjectAltName} (e.g. {@code ip:127.0.0.1}); {@link #truststore} of it then trusts it.
     */
    public Path tlsServer(String alias, String subjectAltName) throws IOException {
        Path store = dir.resolve("tls-" + alias + ".p12");
        keyPair(store, alias, "CN=" + alias, "-ext", "SAN=" + subjectAltName);
        keytool(
                "-importkeystore",
                "-srckeystore",
                store.toString(),
                "-srcstorepass",
                password,
                "-destkeystore",
                keystore().toString(),
                "-deststorepass",
                password,
                "-srcalias",
                alias,
                "-noprompt");
        return store;
    }

    /** {@code jar} signed by {@code alias} with jarsigner. */
    public byte[] sign(byte[] jar, String alias) throws IOException {
        Path in = Files.createTempFile(dir, "unsigned-", ".jar");
        Path out = in.resolveSibling(in.getFileName() + ".signed.jar");
        Files.write(in, jar);
        tool(
                "jarsigner",
                "-keystore",
                keystore().toString(),
                "-storepass",
                password,
                "-keypass",
                password,
                "-signedjar",
                out.toString(),
                in.toString(),
                alias);
        return Files.readAllBytes(out);
    }

    /** An EC P-256 key pair with a self-signed certificate, valid two days, into {@code store}. */
    private void keyPair(Path store, String alias, String subject, String... more) throws IOException {
        List<String> args = new ArrayList<>(List.of(
                "-genkeypair",
                "-alias",
                alias,
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                subject,
                "-validity",
                "2",
                "-storetype",
                "PKCS12",
                "-keystore",
                store.toString(),
                "-storepass",
                password,
                "-keypass",
                password));
        args.addAll(List.of(more));
        keytool(args.toArray(String[]::new));
    }

    private Path keystore() {
        return dir.resolve("keys.p12");
    }

    private void keytool(String... args) throws IOException {
        tool("keytool", args);
    }

    private void tool(String name, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", name).toString());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String out = new String(p.getInputStream().readAllBytes());
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException(String.join(" ", command) + " failed: " + out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }
}
