package io.hotsched.itests;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;

/** A bundle jar copied into deploy/ is installed and started; the platform around it is untouched. */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class DeployInstallIT extends DeployTestSupport {

    @Test
    public void aDroppedBundleBecomesActive() throws Exception {
        drop("sample.jar", TestBundles.bundle(TestBundles.SAMPLE, "1.0.0"));
        Bundle b = awaitActive(TestBundles.SAMPLE, "1.0.0");
        assertTrue(b.getLocation(), b.getLocation().endsWith("/deploy/sample.jar"));
        assertEquals(
                "deployed bundles run at the plugin start level",
                80,
                b.adapt(org.osgi.framework.startlevel.BundleStartLevel.class).getStartLevel());
        assertPlatformRunning();
    }

    @Test
    public void hiddenAndTemporaryNamesAreIgnored() throws Exception {
        java.nio.file.Files.write(
                deployDir().resolve(".half-copied.jar"), TestBundles.bundle("io.hotsched.itest.hidden", "1.0.0"));
        java.nio.file.Files.write(
                deployDir().resolve("copying.jar.part"), TestBundles.bundle("io.hotsched.itest.part", "1.0.0"));
        // a visible jar dropped after them is seen and started, so the watcher has scanned past the
        // other two (and would have installed them before starting it)
        awaitScannedPast();
        assertTrue(bundlesNamed("io.hotsched.itest.hidden").isEmpty());
        assertTrue(bundlesNamed("io.hotsched.itest.part").isEmpty());
    }
}
