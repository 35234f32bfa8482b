package io.hotsched.itests;

import static org.junit.Assert.assertEquals;

import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;

/** Replacing the file of a deployed bundle with a higher version updates that bundle in place. */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class DeployUpdateIT extends DeployTestSupport {

    @Test
    public void overwritingWithAHigherVersionUpdatesTheSameBundle() throws Exception {
        drop("sample.jar", TestBundles.bundle(TestBundles.SAMPLE, "1.0.0"));
        long id = awaitActive(TestBundles.SAMPLE, "1.0.0").getBundleId();

        drop("sample.jar", TestBundles.bundle(TestBundles.SAMPLE, "1.1.0"));
        Bundle updated = awaitActive(TestBundles.SAMPLE, "1.1.0");

        assertEquals("updated in place, not installed beside", id, updated.getBundleId());
        assertEquals(1, bundlesNamed(TestBundles.SAMPLE).size());
        assertPlatformRunning();
    }
}
