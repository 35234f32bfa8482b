package io.hotsched.platform.trust;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.platform.TestBundles;
import io.hotsched.testing.TestSigners;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The signature rules on jars signed at test time with jarsigner, by keys keytool made for the test. */
class TrustPolicyTest {

    static final String PASSWORD = TestBundles.PASSWORD;
    static final String BSN = "io.acme.fit";

    @TempDir
    static Path dir;

    static TestSigners signers;
    static Path trust;

    @BeforeAll
    static void keys() throws IOException {
        signers = TestBundles.signers(dir);
        trust = signers.truststore("ci");
    }

    private static TrustPolicy policy(String rules) throws IOException {
        return TrustPolicy.of(trust.toString(), "PKCS12", PASSWORD, rules, true);
    }

    static byte[] bundle(String text) throws IOException {
        return TestBundles.bundle(BSN, "1.0.0", text.getBytes(StandardCharsets.UTF_8));
    }

    private static File file(byte[] bytes) throws IOException {
        Path p = Files.createTempFile(dir, "jar-", ".jar");
        Files.write(p, bytes);
        return p.toFile();
    }

    /** {@code signed} with its about.txt changed (tampered) or a new entry added, signature files kept. */
    private static byte[] rewritten(byte[] signed, boolean addEntry) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(signed));
                ZipOutputStream zip = new ZipOutputStream(out)) {
            for (ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
                zip.putNextEntry(new ZipEntry(e.getName()));
                byte[] content = in.readAllBytes();
                zip.write(
                        !addEntry && e.getName().endsWith("about.txt")
                                ? "evil".getBytes(StandardCharsets.UTF_8)
                                : content);
                zip.closeEntry();
            }
            if (addEntry) {
                zip.putNextEntry(new ZipEntry("io/acme/fit/Extra.class"));
                zip.write(new byte[] {(byte) 0xCA, (byte) 0xFE});
                zip.closeEntry();
            }
        }
        return out.toByteArray();
    }

    private static String refusal(TrustPolicy policy, byte[] jar) {
        return assertThrows(Untrusted.class, () -> policy.check(file(jar), BSN)).getMessage();
    }

    @Test
    void aJarSignedByATrustRootIsAcceptedWithItsSigner() throws Exception {
        TrustPolicy.Signer s = policy("").check(file(signers.sign(bundle("x"), "ci")), BSN);
        assertEquals("ci", s.alias());
        assertTrue(s.subject().contains("CN=ci"), s.subject());
    }

    @Test
    void anUnsignedJarIsRefused() throws Exception {
        assertTrue(refusal(policy(""), bundle("x")).contains("the jar is not signed"));
    }

    @Test
    void aJarSignedByAnUnknownKeyIsRefusedNamingTheSigner() throws Exception {
        String why = refusal(policy(""), signers.sign(bundle("x"), "stranger"));
        assertTrue(why.contains("CN=stranger") && why.contains("does not chain to a trust root"), why);
    }

    @Test
    void aTamperedEntryIsRefused() throws Exception {
        String why = refusal(policy(""), rewritten(signers.sign(bundle("x"), "ci"), false));
        assertTrue(why.contains("does not match entry io/acme/fit/about.txt"), why);
    }

    @Test
    void anEntryAddedAfterSigningIsRefused() throws Exception {
        String why = refusal(policy(""), rewritten(signers.sign(bundle("x"), "ci"), true));
        assertTrue(why.contains("entry io/acme/fit/Extra.class is not signed"), why);
    }

    @Test
    void aRuleRestrictsWhichTrustedSignerMayProvideABundle() throws Exception {
        byte[] jar = signers.sign(bundle("x"), "ci");
        String why = refusal(policy("io.acme.*=release"), jar);
        assertTrue(why.contains("io.acme.fit may be signed only by [release]"), why);
        assertEquals(
                "ci",
                policy("io.other.*=release; io.acme.*=release,ci")
                        .check(file(jar), BSN)
                        .alias());
    }

    @Test
    void withoutTrustRootsEverythingIsRefusedUnlessSignaturesAreNotRequired() throws Exception {
        byte[] jar = signers.sign(bundle("x"), "ci");
        String why = refusal(TrustPolicy.of("", "PKCS12", "", "", true), jar);
        assertTrue(why.contains("no trust roots are configured"), why);
        assertEquals(
                "unsigned",
                TrustPolicy.of("", "PKCS12", "", "", false)
                        .check(file(bundle("x")), BSN)
                        .subject());
    }

    @Test
    void aMissingTruststoreOrABadRuleIsAnErrorNamingIt() {
        IOException missing = assertThrows(
                IOException.class, () -> TrustPolicy.of(dir.resolve("nope.p12").toString(), "PKCS12", "", "", true));
        assertTrue(missing.getMessage().contains("nope.p12"), missing.getMessage());
        IOException rule = assertThrows(IOException.class, () -> policy("io.acme.fit"));
        assertTrue(rule.getMessage().contains("'io.acme.fit' is not name=alias,alias"), rule.getMessage());
    }
}
