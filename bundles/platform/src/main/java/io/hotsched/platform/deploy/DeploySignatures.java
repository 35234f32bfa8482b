package io.hotsched.platform.deploy;

import io.hotsched.platform.trust.TrustPolicy;
import io.hotsched.platform.trust.Untrusted;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Properties;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.jar.JarInputStream;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The signature policy of plugin delivery applied to the jars FileInstall installs, when {@code
 * verifyDeploy = true} in {@code etc/io.hotsched.delivery.cfg}: the same trust roots, signer rules
 * and words. The policy is read from that file at each check rather than from Config Admin: at
 * start FileInstall may see {@code deploy/} before Config Admin has the file's values, and a jar
 * must never be installed under a policy not yet known. The jars the distribution ships in {@code
 * deploy/} pass by their digests in {@code etc/shipped-plugins.sha256}, which the build writes: a
 * file beside the policy, so as protected as the policy itself.
 */
public final class DeploySignatures {

    /** What the check found: {@code verified} false when the policy is off. */
    public record Verdict(boolean verified, String bsn, String version, String sha256, String signer) {}

    /** The digests of the jars the distribution ships in deploy/, beside the configuration file. */
    static final String SHIPPED = "shipped-plugins.sha256";

    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([^}]+)}");

    private final Path cfg;
    private final UnaryOperator<String> properties;

    /**
     * @param cfg the delivery configuration file
     * @param properties framework properties, for {@code ${name}} in the file's values (as FileInstall substitutes them)
     */
    public DeploySignatures(Path cfg, UnaryOperator<String> properties) {
        this.cfg = cfg;
        this.properties = properties;
    }

    /** The verdict for {@code jar}, a bundle; refused when the policy is on and the jar does not pass it. */
    public Verdict check(File jar) throws Untrusted {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(cfg, StandardCharsets.ISO_8859_1)) {
            p.load(in);
        } catch (NoSuchFileException e) {
            return new Verdict(false, "", "", "", "");
        } catch (IOException e) {
            throw new Untrusted("the signature policy in " + cfg + " cannot be read: " + e.getMessage());
        }
        String verify = value(p, "verifyDeploy", "false");
        if (!verify.equals("true")) {
            if (!verify.equals("false")) {
                throw new Untrusted(
                        cfg + ": verifyDeploy is '" + verify + "', not true or false; no jar is installed until it is");
            }
            return new Verdict(false, "", "", "", "");
        }
        TrustPolicy policy;
        try {
            policy = TrustPolicy.of(
                    value(p, "truststore", ""),
                    value(p, "truststoreType", "PKCS12"),
                    value(p, "truststorePassword", ""),
                    value(p, "signers", ""),
                    !value(p, "requireSignature", "true").equals("false"));
        } catch (IOException e) {
            // a policy that cannot be read refuses everything rather than nothing
            throw new Untrusted("the signature policy in " + cfg + " is broken: " + e.getMessage());
        }
        String[] id = identity(jar);
        String sha256 = sha256(jar);
        if (shipped().contains(sha256)) {
            return new Verdict(true, id[0], id[1], sha256, "shipped with this distribution (" + shippedList() + ")");
        }
        TrustPolicy.Signer signer;
        try {
            signer = policy.check(jar, id[0]);
        } catch (Untrusted e) {
            throw new Untrusted(id[0] + " " + id[1] + " (sha256 " + sha256 + ") " + e.getMessage());
        }
        return new Verdict(true, id[0], id[1], sha256, signer.toString());
    }

    private Path shippedList() {
        return cfg.resolveSibling(SHIPPED);
    }

    /** The digests in etc/shipped-plugins.sha256 ({@code sha256sum}'s format), written by the build. */
    private Set<String> shipped() throws Untrusted {
        try (Stream<String> lines = Files.lines(shippedList(), StandardCharsets.ISO_8859_1)) {
            return lines.map(l -> l.strip().split("\\s+")[0])
                    .filter(d -> d.length() == 64)
                    .collect(Collectors.toSet());
        } catch (NoSuchFileException e) {
            return Set.of();
        } catch (IOException | UncheckedIOException e) {
            throw new Untrusted("cannot read " + shippedList() + ": " + e.getMessage());
        }
    }

    private String value(Properties p, String key, String otherwise) {
        String raw = p.getProperty(key);
        if (raw == null || raw.isBlank()) {
            return otherwise;
        }
        Matcher m = PLACEHOLDER.matcher(raw.strip());
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String v = properties.apply(m.group(1));
            m.appendReplacement(out, Matcher.quoteReplacement(v == null ? "" : v));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** Symbolic name (without directives) and version of a jar that BundleFileCheck passed. */
    private static String[] identity(File jar) throws Untrusted {
        try (InputStream in = Files.newInputStream(jar.toPath());
                JarInputStream j = new JarInputStream(in)) {
            Manifest m = j.getManifest();
            String bsn = m == null ? null : m.getMainAttributes().getValue("Bundle-SymbolicName");
            if (bsn == null) {
                throw new Untrusted("the manifest has no Bundle-SymbolicName");
            }
            String version = m.getMainAttributes().getValue("Bundle-Version");
            return new String[] {bsn.split(";")[0].strip(), version == null ? "0.0.0" : version.strip()};
        } catch (IOException e) {
            throw new Untrusted("cannot read the manifest: " + e.getMessage());
        }
    }

    private static String sha256(File jar) throws Untrusted {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(jar.toPath())));
        } catch (IOException | NoSuchAlgorithmException e) {
            throw new Untrusted("cannot read the jar: " + e.getMessage());
        }
    }
}
