package io.hotsched.itests;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;

/**
 * Issue 7, scenario 2: the bundle of a Filter plugin one profile uses is deleted from deploy/
 * while two profiles schedule under load. That profile pauses (nothing created meanwhile is bound
 * by it) while the other keeps binding; the bundle comes back and the paused profile's queue drains.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class RemoveAndReturnIT extends KubeClusterSupport {

    static final String CONFIG = """
            apiVersion: kubescheduler.config.k8s.io/v1
            kind: KubeSchedulerConfiguration
            profiles:
            - schedulerName: default-scheduler
            - schedulerName: fit-scheduler
              plugins:
                filter:
                  enabled: [{name: ItestFit}]
            """;
    static final int PODS_EACH = 1500;
    /** Pods of each profile bound before the plugin leaves: about three seconds of the load. */
    static final int LOAD_BEFORE = 200;
    /** Pods of each profile created while one is paused: about two seconds of the load. */
    static final int LOAD_WHILE_PAUSED = 150;

    @Override
    protected String schedulerYaml() {
        return CONFIG;
    }

    /** The pods the scheduling loop set aside because {@code profile} is paused. */
    private long parked(String profile) {
        return admin.queue().pods().stream()
                .filter(e -> e.queue().equals("unschedulable") && e.rejectedBy().contains("profile/" + profile))
                .count();
    }

    @Test
    public void aProfileMissingAPluginPausesWhileTheOtherSchedules() throws Exception {
        loadCluster(100);
        byte[] plugin = itestPlugins();
        Path jar = drop("itest-plugins.jar", plugin);
        await(
                "both profiles ready",
                () -> profileState("default-scheduler").equals("ready")
                        && profileState("fit-scheduler").equals("ready"));

        try (BindingRecorder recorder = new BindingRecorder(client, "load");
                PodLoad other = new PodLoad(client, "load", "a-", PODS_EACH, 75, "default-scheduler");
                PodLoad fit = new PodLoad(client, "load", "b-", PODS_EACH, 75, "fit-scheduler")) {
            await(
                    "both profiles binding under load",
                    () -> recorder.named("a-").size() >= LOAD_BEFORE
                            && recorder.named("b-").size() >= LOAD_BEFORE);
            Files.delete(jar);
            await(
                    "fit-scheduler paused",
                    () -> profileState("fit-scheduler").equals("paused: waiting for plugin(s) ItestFit"));
            long paused = System.nanoTime();
            assertEquals("the other profile is not touched", "ready", profileState("default-scheduler"));
            int createdBeforePause = fit.created();
            await(
                    "fit-scheduler's pods arriving and set aside while it is paused, the other profile binding",
                    () -> fit.created() - createdBeforePause >= LOAD_WHILE_PAUSED
                            && parked("fit-scheduler") >= LOAD_WHILE_PAUSED
                            && recorder.named("a-").stream()
                                            .filter(b -> b.seenNanos() > paused)
                                            .count()
                                    >= LOAD_WHILE_PAUSED);
            long back = System.nanoTime();
            drop("itest-plugins.jar", plugin);
            await(
                    "fit-scheduler ready again",
                    () -> profileState("fit-scheduler").equals("ready"));

            // the whole load takes PODS_EACH / 75 s; a loaded machine may need longer than the default wait
            await("all pods created", Duration.ofSeconds(PODS_EACH / 75 + 20), () -> other.done() && fit.done());
            other.check();
            fit.check();
            await("every pod bound", () -> recorder.bound() == 2 * PODS_EACH);

            long fitBoundWhilePaused = recorder.named("b-").stream()
                    .filter(b -> fit.createdAt(b.pod()) > paused && b.seenNanos() < back)
                    .count();
            long fitCreatedWhilePaused = recorder.named("b-").stream()
                    .filter(b -> fit.createdAt(b.pod()) > paused && fit.createdAt(b.pod()) < back)
                    .count();
            long otherBoundWhilePaused = recorder.named("a-").stream()
                    .filter(b -> b.seenNanos() > paused && b.seenNanos() < back)
                    .count();
            System.out.printf(
                    "scenario 2 (remove and return): %d pods created, %d bound, %d bound twice, %d lost, 1 removal + 1 return; "
                            + "while paused: %d fit-scheduler pods created and 0 of them bound (%d), %d default-scheduler pods bound; "
                            + "longest pause between bindings %d ms%n",
                    2 * PODS_EACH,
                    recorder.bound(),
                    recorder.boundTwice(),
                    2 * PODS_EACH - recorder.bound(),
                    fitCreatedWhilePaused,
                    fitBoundWhilePaused,
                    otherBoundWhilePaused,
                    recorder.longestGapMillis());
            assertEquals("bound twice", 0, recorder.boundTwice());
            assertEquals(
                    "fit-scheduler pods created while it was paused and bound before the plugin came back",
                    0,
                    fitBoundWhilePaused);
            assertTrue(
                    "pods for the paused profile kept arriving: " + fitCreatedWhilePaused, fitCreatedWhilePaused > 100);
            assertTrue(
                    "the other profile kept binding while one was paused: " + otherBoundWhilePaused,
                    otherBoundWhilePaused > 100);
        }
    }
}
