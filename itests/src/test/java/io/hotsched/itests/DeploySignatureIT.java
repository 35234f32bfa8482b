package io.hotsched.itests;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.osgi.service.log.LogLevel;

/**
 * deploy/ under plugin delivery's signature policy ({@code verifyDeploy = true}): a jar that is
 * unsigned, or signed by a key outside the trust roots, is refused with one line naming the file,
 * the bundle, its digest and its signer, and nothing is installed; a jar signed by a trusted key is
 * installed, its signer logged.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class DeploySignatureIT extends DeployTestSupport {

    @Override
    @Configuration
    public Option[] configuration() throws IOException {
        return PlatformOptions.platform(
                Map.of(
                        "io.hotsched.delivery.cfg",
                        "truststore = " + SigningKeys.truststore() + "\ntruststorePassword = " + SigningKeys.PASSWORD
                                + "\nverifyDeploy = true\n"),
                true);
    }

    @Test
    public void anUnsignedJarIsRefusedNamingItsDigest() throws Exception {
        String line = refused("unsigned.jar", TestBundles.bundle("io.hotsched.itest.unsigned", "1.0.0"));
        assertTrue(line, line.contains("io.hotsched.itest.unsigned 1.0.0 (sha256 "));
        assertTrue(line, line.contains("the jar is not signed"));
    }

    @Test
    public void aJarSignedByAStrangerIsRefusedNamingTheSigner() throws Exception {
        byte[] jar =
                SigningKeys.get().sign(TestBundles.bundle("io.hotsched.itest.stranger", "1.0.0"), SigningKeys.STRANGER);
        String line = refused("stranger.jar", jar);
        assertTrue(line, line.contains("CN=" + SigningKeys.STRANGER));
        assertTrue(line, line.contains("not a trusted signer for io.hotsched.itest.stranger"));
    }

    @Test
    public void aJarSignedByATrustedKeyIsInstalledAndItsSignerLogged() throws Exception {
        byte[] jar =
                SigningKeys.get().sign(TestBundles.bundle("io.hotsched.itest.trusted", "1.0.0"), SigningKeys.TRUSTED);
        drop("trusted.jar", jar);
        awaitActive("io.hotsched.itest.trusted", "1.0.0");
        String verified = await(
                "the verification line",
                () -> log.all().stream()
                        .map(LogCapture.Line::text)
                        .filter(t -> t.startsWith("Verified " + deployDir().resolve("trusted.jar")))
                        .findFirst()
                        .orElse(null));
        assertTrue(verified, verified.contains("io.hotsched.itest.trusted 1.0.0, sha256 "));
        assertTrue(verified, verified.contains("signed by CN=" + SigningKeys.TRUSTED));
        assertPlatformRunning();
    }

    /** Drops {@code content} as {@code name}, waits for its refusal and returns the one line that says it. */
    private String refused(String name, byte[] content) throws Exception {
        drop(name, content);
        List<LogCapture.Line> lines = await(
                "refusal of " + name,
                () -> log.problemsMentioning(name).isEmpty() ? null : log.problemsMentioning(name));
        assertEquals("one line about " + name + ": " + lines, 1, lines.size());
        assertEquals(LogLevel.ERROR, lines.get(0).level());
        String text = lines.get(0).text();
        assertTrue(text, text.startsWith("Refused " + deployDir().resolve(name)));
        assertTrue(text, text.contains("verifyDeploy = true in etc/io.hotsched.delivery.cfg"));
        for (Bundle b : context.getBundles()) {
            assertTrue("nothing installed from " + name, !b.getLocation().endsWith("/" + name));
        }
        assertPlatformRunning();
        return text;
    }
}
