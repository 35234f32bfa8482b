package io.hotsched.itests;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.service.log.LogLevel;

/**
 * A file in deploy/ that is not a bundle is refused with one error line naming the file and the
 * reason; nothing is installed, the platform keeps running, and the corrected file is picked up.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class DeployRefuseIT extends DeployTestSupport {

    @Test
    public void garbageIsRefusedWithOneLine() throws Exception {
        refusedWithOneLine(
                "garbage.jar", "this is not a jar".getBytes(StandardCharsets.UTF_8), "not a jar (zip) archive");
    }

    @Test
    public void truncatedJarIsRefusedWithOneLine() throws Exception {
        byte[] whole = TestBundles.bundle("io.hotsched.itest.truncated", "1.0.0");
        refusedWithOneLine("truncated.jar", Arrays.copyOf(whole, whole.length / 2), "truncated");
    }

    @Test
    public void jarWithoutManifestIsRefusedWithOneLine() throws Exception {
        refusedWithOneLine("nomanifest.jar", TestBundles.jarWithoutManifest(), "no META-INF/MANIFEST.MF");
    }

    @Test
    public void plainJarIsRefusedWithOneLine() throws Exception {
        refusedWithOneLine("plain.jar", TestBundles.plainJar(), "no Bundle-SymbolicName");
    }

    @Test
    public void theCorrectedFileIsPickedUp() throws Exception {
        drop("fixme.jar", "not yet".getBytes(StandardCharsets.UTF_8));
        await("refusal of fixme.jar", () -> !log.problemsMentioning("fixme.jar").isEmpty());
        drop("fixme.jar", TestBundles.bundle("io.hotsched.itest.fixed", "1.0.0"));
        awaitActive("io.hotsched.itest.fixed", "1.0.0");
        assertPlatformRunning();
    }

    private void refusedWithOneLine(String name, byte[] content, String reason) throws Exception {
        drop(name, content);
        List<LogCapture.Line> lines = await(
                "refusal of " + name,
                () -> log.problemsMentioning(name).isEmpty() ? null : log.problemsMentioning(name));
        // a retry would come on a later scan: one has handled a bundle dropped after the refusal
        awaitScannedPast();
        lines = log.problemsMentioning(name);
        assertEquals("exactly one line about " + name + ": " + lines, 1, lines.size());
        LogCapture.Line line = lines.get(0);
        assertEquals(LogLevel.ERROR, line.level());
        assertTrue(line.text(), line.text().startsWith("Refused " + deployDir().resolve(name)));
        if (reason != null) {
            assertTrue(line.text(), line.text().contains(reason));
        }
        for (org.osgi.framework.Bundle b : context.getBundles()) {
            assertTrue("nothing installed from " + name, !b.getLocation().endsWith("/" + name));
        }
        assertPlatformRunning();
    }
}
