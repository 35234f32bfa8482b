package io.hotsched.itests;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;

/** Two files holding two versions of one bundle run side by side; removing one leaves the other. */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class DeploySideBySideIT extends DeployTestSupport {

    @Test
    public void twoVersionsStandSideBySide() throws Exception {
        drop("sample-1.0.0.jar", TestBundles.bundle(TestBundles.SAMPLE, "1.0.0"));
        Path newer = drop("sample-2.0.0.jar", TestBundles.bundle(TestBundles.SAMPLE, "2.0.0"));
        awaitActive(TestBundles.SAMPLE, "1.0.0");
        awaitActive(TestBundles.SAMPLE, "2.0.0");
        assertEquals(2, bundlesNamed(TestBundles.SAMPLE).size());

        Files.delete(newer);
        await("2.0.0 gone", () -> bundle(TestBundles.SAMPLE, "2.0.0").isEmpty());
        assertTrue("1.0.0 still active", bundle(TestBundles.SAMPLE, "1.0.0").isPresent());
        assertPlatformRunning();
    }
}
