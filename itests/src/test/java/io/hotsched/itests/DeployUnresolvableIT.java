package io.hotsched.itests;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;

/**
 * A bundle whose imports cannot be wired stays installed but not started, with one line naming
 * the file and the missing requirement; it starts by itself once a bundle provides what it needs.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class DeployUnresolvableIT extends DeployTestSupport {

    private static final String NEEDY = "io.hotsched.itest.needy";

    /** Drops a file that is not a bundle under {@code name} and waits for its refusal. */
    private void awaitRefused(String name) throws IOException {
        drop(name, "not a bundle".getBytes(StandardCharsets.UTF_8));
        await("refusal of " + name, () -> !log.problemsMentioning(name).isEmpty());
    }

    @Test
    public void unresolvableBundleWaitsWithOneLineThenStarts() throws Exception {
        drop(
                "needy.jar",
                TestBundles.bundle(
                        NEEDY, "1.0.0", Map.of("Import-Package", "io.hotsched.itest.provided;version=\"[2,3)\"")));
        List<LogCapture.Line> lines = await(
                "complaint about needy.jar",
                () -> log.problemsMentioning("needy.jar").isEmpty() ? null : log.problemsMentioning("needy.jar"));
        // FileInstall tries again to start what failed on a pass after any bundle event; a bundle
        // installed in deploy/ would change the set it retries, and it logs again on purpose then
        Bundle nudge = context.installBundle(
                "itest:nudge", new ByteArrayInputStream(TestBundles.bundle("io.hotsched.itest.nudge", "1.0.0")));
        nudge.uninstall();
        // a pass over deploy/ that installs nothing, with the retry at its end; the next pass
        // begins only after it ended
        awaitRefused("retry-marker-1.jar");
        awaitRefused("retry-marker-2.jar");
        lines = log.problemsMentioning("needy.jar");
        assertEquals("one line: " + lines, 1, lines.size());
        assertTrue(lines.get(0).text(), lines.get(0).text().contains("io.hotsched.itest.provided"));
        assertEquals(Bundle.INSTALLED, bundle(NEEDY, "1.0.0").orElseThrow().getState());
        assertPlatformRunning();

        drop(
                "provider.jar",
                TestBundles.bundle(
                        "io.hotsched.itest.provider",
                        "2.0.0",
                        Map.of("Export-Package", "io.hotsched.itest.provided;version=\"2.0.0\"")));
        awaitActive(NEEDY, "1.0.0");
    }
}
