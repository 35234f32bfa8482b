package io.hotsched.platform.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.platform.TestBundles;
import io.hotsched.platform.trust.Untrusted;
import io.hotsched.testing.TestSigners;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** deploy/'s signature policy read from etc/io.hotsched.delivery.cfg, on jars signed at test time. */
class DeploySignaturesTest {

    static final String PASSWORD = TestBundles.PASSWORD;

    @TempDir
    static Path dir;

    static TestSigners signers;
    static File signed;
    static File strangers;
    static File unsigned;

    @BeforeAll
    static void jars() throws IOException {
        signers = TestBundles.signers(dir);
        Files.copy(signers.truststore("ci"), dir.resolve("trust.p12"));
        unsigned = write("unsigned.jar", bundle());
        signed = write("signed.jar", signers.sign(bundle(), "ci"));
        strangers = write("stranger.jar", signers.sign(bundle(), "stranger"));
    }

    private static File write(String name, byte[] bytes) throws IOException {
        return Files.write(dir.resolve(name), bytes).toFile();
    }

    private static byte[] bundle() throws IOException {
        return TestBundles.bundle("io.acme.fit;singleton:=true", "1.2.0", new byte[] {1});
    }

    /** A policy file with {@code lines}; the truststore is named through ${hotsched.home}, as the shipped file does. */
    private static DeploySignatures policy(String... lines) throws IOException {
        Path cfg = Files.createTempFile(dir, "delivery-", ".cfg");
        Files.writeString(cfg, String.join("\n", lines) + "\n");
        Map<String, String> props = Map.of("hotsched.home", dir.toString());
        return new DeploySignatures(cfg, props::get);
    }

    private static final String[] TRUSTING = {
        "truststore = ${hotsched.home}/trust.p12", "truststorePassword = " + PASSWORD, "verifyDeploy = true"
    };

    @Test
    void offUnlessVerifyDeployIsSetSoDeployTakesUnsignedJarsAsBefore() throws Exception {
        assertFalse(policy("truststore =").check(unsigned).verified());
        assertFalse(new DeploySignatures(dir.resolve("absent.cfg"), k -> null)
                .check(unsigned)
                .verified());
    }

    @Test
    void aJarSignedByATrustRootPassesWithItsDigestAndSigner() throws Exception {
        DeploySignatures.Verdict v = policy(TRUSTING).check(signed);
        assertTrue(v.verified());
        assertEquals("io.acme.fit", v.bsn());
        assertEquals("1.2.0", v.version());
        assertEquals(64, v.sha256().length());
        assertTrue(v.signer().contains("CN=ci") && v.signer().contains("trusted as 'ci'"), v.signer());
    }

    @Test
    void unsignedAndUntrustedJarsAreRefusedNamingBundleDigestAndSigner() throws IOException {
        DeploySignatures p = policy(TRUSTING);
        String why = assertThrows(Untrusted.class, () -> p.check(unsigned)).getMessage();
        assertTrue(why.startsWith("io.acme.fit 1.2.0 (sha256 ") && why.contains("the jar is not signed"), why);
        why = assertThrows(Untrusted.class, () -> p.check(strangers)).getMessage();
        assertTrue(why.contains("CN=stranger") && why.contains("does not chain to a trust root"), why);
    }

    @Test
    void theSignerRulesOfDeliveryApply() throws IOException {
        DeploySignatures p = policy(TRUSTING[0], TRUSTING[1], TRUSTING[2], "signers = io.acme.*=release");
        String why = assertThrows(Untrusted.class, () -> p.check(signed)).getMessage();
        assertTrue(why.contains("io.acme.fit may be signed only by [release]"), why);
    }

    @Test
    void theJarsShippedInDeployPassByTheirDigestsInTheShippedList() throws Exception {
        Path home = Files.createTempDirectory(dir, "home-");
        Path cfg = Files.writeString(
                home.resolve("io.hotsched.delivery.cfg"),
                "truststore = " + dir.resolve("trust.p12") + "\ntruststorePassword = " + PASSWORD
                        + "\nverifyDeploy = true\n");
        DeploySignatures p = new DeploySignatures(cfg, k -> null);
        assertThrows(Untrusted.class, () -> p.check(unsigned));
        String digest = java.util.HexFormat.of()
                .formatHex(java.security.MessageDigest.getInstance("SHA-256")
                        .digest(Files.readAllBytes(unsigned.toPath())));
        Files.writeString(home.resolve(DeploySignatures.SHIPPED), digest + "  unsigned.jar\n");
        DeploySignatures.Verdict v = p.check(unsigned);
        assertTrue(v.verified());
        assertTrue(v.signer().startsWith("shipped with this distribution"), v.signer());
        assertThrows(Untrusted.class, () -> p.check(strangers));
    }

    @Test
    void aBrokenPolicyRefusesEverythingNamingTheFile() throws IOException {
        DeploySignatures missingStore = policy("truststore = ${hotsched.home}/nope.p12", "verifyDeploy = true");
        String why =
                assertThrows(Untrusted.class, () -> missingStore.check(signed)).getMessage();
        assertTrue(why.contains("is broken") && why.contains("nope.p12"), why);
        DeploySignatures typo = policy(TRUSTING[0], TRUSTING[1], "verifyDeploy = yes");
        why = assertThrows(Untrusted.class, () -> typo.check(signed)).getMessage();
        assertTrue(why.contains("verifyDeploy is 'yes', not true or false"), why);
    }
}
