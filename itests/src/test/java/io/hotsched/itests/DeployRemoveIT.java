package io.hotsched.itests;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;

/** Deleting the file of a deployed bundle uninstalls it. */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class DeployRemoveIT extends DeployTestSupport {

    @Test
    public void deletingTheFileUninstallsTheBundle() throws Exception {
        Path file = drop("sample.jar", TestBundles.bundle(TestBundles.SAMPLE, "1.0.0"));
        Bundle b = awaitActive(TestBundles.SAMPLE, "1.0.0");

        Files.delete(file);
        // out of the framework's list before its state is set: wait for both
        await(
                "sample uninstalled",
                () -> bundlesNamed(TestBundles.SAMPLE).isEmpty() && b.getState() == Bundle.UNINSTALLED);
        assertPlatformRunning();
    }
}
