package io.hotsched.platform.trust;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSigner;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertPath;
import java.security.cert.CertPathValidator;
import java.security.cert.CertPathValidatorException;
import java.security.cert.Certificate;
import java.security.cert.PKIXCertPathValidatorResult;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Date;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Who may put code into the scheduler: a jar is accepted when every entry is signed by a
 * certificate that is, or chains to, one of the trust roots, and (when a rule names the bundle)
 * that root's alias is among those the rule allows. Without trust roots every jar is refused,
 * unless signatures are explicitly not required.
 */
public final class TrustPolicy {

    /** Who signed an accepted jar: the signing certificate's subject and the trusted alias; "unsigned" if not required. */
    public record Signer(String subject, String alias) {

        static final Signer UNSIGNED = new Signer("unsigned", "");

        @Override
        public String toString() {
            return alias.isEmpty() ? subject : subject + " (trusted as '" + alias + "')";
        }
    }

    private record Rule(String pattern, Set<String> aliases) {
        boolean matches(String bsn) {
            return pattern.endsWith("*")
                    ? bsn.startsWith(pattern.substring(0, pattern.length() - 1))
                    : bsn.equals(pattern);
        }
    }

    private final Map<String, X509Certificate> roots;
    private final List<Rule> rules;
    private final boolean required;
    private final String source;

    private TrustPolicy(Map<String, X509Certificate> roots, List<Rule> rules, boolean required, String source) {
        this.roots = roots;
        this.rules = rules;
        this.required = required;
        this.source = source;
    }

    /**
     * @param truststore a PKCS12/JKS file of trusted certificates, or empty for none
     * @param signers rules {@code name-or-prefix*=alias,alias; ...}, or empty
     */
    public static TrustPolicy of(String truststore, String type, String password, String signers, boolean required)
            throws IOException {
        Map<String, X509Certificate> roots = new LinkedHashMap<>();
        if (truststore != null && !truststore.isBlank()) {
            Path path = Path.of(truststore.strip());
            try (InputStream in = Files.newInputStream(path)) {
                KeyStore ks = KeyStore.getInstance(type == null || type.isBlank() ? "PKCS12" : type.strip());
                ks.load(in, password == null ? new char[0] : password.toCharArray());
                for (String alias : Collections.list(ks.aliases())) {
                    if (ks.getCertificate(alias) instanceof X509Certificate c) {
                        roots.put(alias, c);
                    }
                }
            } catch (GeneralSecurityException e) {
                throw new IOException("truststore " + path + ": " + e.getMessage(), e);
            }
            if (roots.isEmpty()) {
                throw new IOException("truststore " + path + " holds no certificate");
            }
        }
        return new TrustPolicy(roots, rules(signers), required, truststore == null ? "" : truststore.strip());
    }

    private static List<Rule> rules(String signers) throws IOException {
        List<Rule> rules = new ArrayList<>();
        if (signers == null || signers.isBlank()) {
            return rules;
        }
        for (String part : signers.split(";")) {
            if (part.isBlank()) {
                continue;
            }
            int eq = part.indexOf('=');
            if (eq <= 0 || part.substring(eq + 1).isBlank()) {
                throw new IOException("signers: '" + part.strip() + "' is not name=alias,alias");
            }
            Set<String> aliases = new HashSet<>();
            for (String a : part.substring(eq + 1).split(",")) {
                if (!a.isBlank()) {
                    aliases.add(a.strip());
                }
            }
            rules.add(new Rule(part.substring(0, eq).strip(), aliases));
        }
        return rules;
    }

    /** Whether any jar can be accepted at all, and why not. */
    public String describe() {
        if (!required) {
            return "signatures not required (requireSignature = false): any jar whose digest matches is installed";
        }
        return roots.isEmpty()
                ? "no trust roots configured (truststore in etc/io.hotsched.delivery.cfg): every jar is refused"
                : roots.size() + " trusted signer(s) " + roots.keySet() + " from " + source;
    }

    /** The signer that vouches for {@code jar} holding bundle {@code bsn}; refused when there is none. */
    public Signer check(File jar, String bsn) throws Untrusted {
        if (!required) {
            return Signer.UNSIGNED;
        }
        if (roots.isEmpty()) {
            throw new Untrusted(
                    "no trust roots are configured (truststore in etc/io.hotsched.delivery.cfg), so no signed"
                            + " bundle can be trusted; set requireSignature = false to accept unsigned bundles");
        }
        Set<CodeSigner> signers = JarSignatures.commonSigners(jar);
        List<String> untrusted = new ArrayList<>();
        for (CodeSigner s : signers) {
            String subject = subject(s.getSignerCertPath());
            String alias;
            try {
                alias = trustedAlias(s);
            } catch (Untrusted why) {
                untrusted.add(subject + " (" + why.getMessage() + ")");
                continue;
            }
            Rule rule = rules.stream().filter(r -> r.matches(bsn)).findFirst().orElse(null);
            if (rule != null && !rule.aliases().contains(alias)) {
                untrusted.add(subject + " (trusted as '" + alias + "', but " + bsn + " may be signed only by "
                        + new TreeSet<>(rule.aliases()) + ")");
                continue;
            }
            return new Signer(subject, alias);
        }
        throw new Untrusted("signed by " + String.join(", ", untrusted) + ": not a trusted signer for " + bsn);
    }

    private String trustedAlias(CodeSigner signer) throws Untrusted {
        CertPath path = signer.getSignerCertPath();
        for (Certificate c : path.getCertificates()) {
            for (Map.Entry<String, X509Certificate> root : roots.entrySet()) {
                if (root.getValue().equals(c)) {
                    validAt(root.getValue(), signer);
                    return root.getKey();
                }
            }
        }
        try {
            Set<TrustAnchor> anchors = new HashSet<>();
            roots.values().forEach(r -> anchors.add(new TrustAnchor(r, null)));
            PKIXParameters params = new PKIXParameters(anchors);
            params.setRevocationEnabled(false);
            params.setDate(signingTime(signer));
            PKIXCertPathValidatorResult result = (PKIXCertPathValidatorResult)
                    CertPathValidator.getInstance("PKIX").validate(path, params);
            X509Certificate anchor = result.getTrustAnchor().getTrustedCert();
            return roots.entrySet().stream()
                    .filter(e -> e.getValue().equals(anchor))
                    .map(Map.Entry::getKey)
                    .findFirst()
                    .orElseThrow();
        } catch (CertPathValidatorException e) {
            throw new Untrusted("its certificate does not chain to a trust root: " + e.getMessage());
        } catch (GeneralSecurityException e) {
            throw new Untrusted("its certificate chain cannot be checked: " + e.getMessage());
        }
    }

    private static void validAt(X509Certificate c, CodeSigner signer) throws Untrusted {
        try {
            c.checkValidity(signingTime(signer));
        } catch (GeneralSecurityException e) {
            throw new Untrusted("its certificate is not valid at signing time: " + e.getMessage());
        }
    }

    /** The timestamp's time for a timestamped signature (so it outlives the certificate), else now. */
    private static Date signingTime(CodeSigner signer) {
        return signer.getTimestamp() != null ? signer.getTimestamp().getTimestamp() : new Date();
    }

    static String subject(CertPath path) {
        List<? extends Certificate> certs = path.getCertificates();
        return !certs.isEmpty() && certs.get(0) instanceof X509Certificate x
                ? x.getSubjectX500Principal().getName()
                : "an unknown signer";
    }
}
