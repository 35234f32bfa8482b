package io.hotsched.itests;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hotsched.itest.plugins.ItestVersion;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;

/**
 * Issue 7, scenario 4: version 2 of a plugin bundle installed next to version 1 under load takes
 * over, deleting it returns to version 1; the profile never pauses, and sched:plugins shows which
 * version serves and which stands by.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class SideBySideRollbackIT extends KubeClusterSupport {

    static final String CONFIG = UpgradeUnderLoadIT.CONFIG;
    static final int PODS = 1500;
    /** Pods bound before each change: three seconds of the load. */
    static final int LOAD_BEFORE_SWAP = 300;

    @Override
    protected String schedulerYaml() {
        return CONFIG;
    }

    @Test
    public void version2TakesOverAndItsRemovalRollsBackWithoutAPause() throws Exception {
        loadCluster(100);
        byte[] plugin = itestPlugins();
        drop("itest-plugins-1.jar", TestBundles.withVersion(plugin, "1.0.0"));
        await("version 1 serves", () -> "1.0.0".equals(servingVersion(ItestVersion.NAME)));
        await("profile ready", () -> profileState("default-scheduler").equals("ready"));

        Set<String> states = ConcurrentHashMap.newKeySet();
        // a pause is as short as one framework rebuild: sampled every 2 ms, beside the scenario
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
        try (BindingRecorder recorder = new BindingRecorder(client, "load");
                PodLoad load = new PodLoad(client, "load", "p-", PODS, 100, "default-scheduler")) {
            sampler.scheduleAtFixedRate(
                    () -> states.add(profileState("default-scheduler")), 0, 2, TimeUnit.MILLISECONDS);
            await("version 1 binding under load", () -> recorder.bound() >= LOAD_BEFORE_SWAP);
            Path v2 = drop("itest-plugins-2.jar", TestBundles.withVersion(plugin, "2.0.0"));
            await("version 2 serves", () -> "2.0.0".equals(servingVersion(ItestVersion.NAME)));
            long twoServes = System.nanoTime();
            assertEquals("sched:plugins, 2.0.0", "active", pluginsState(ItestVersion.NAME, "2.0.0"));
            assertEquals("sched:plugins, 1.0.0", "standby", pluginsState(ItestVersion.NAME, "1.0.0"));
            await(
                    "version 2 serving under load",
                    () -> recorder.inOrder().stream()
                                    .filter(b -> b.seenNanos() > twoServes)
                                    .count()
                            >= LOAD_BEFORE_SWAP);
            long rollback = System.nanoTime();
            Files.delete(v2);
            await("version 1 serves again", () -> "1.0.0".equals(servingVersion(ItestVersion.NAME)));
            long oneServes = System.nanoTime();
            assertEquals("sched:plugins, 1.0.0", "active", pluginsState(ItestVersion.NAME, "1.0.0"));
            assertEquals("version 2 is gone from sched:plugins", "", pluginsState(ItestVersion.NAME, "2.0.0"));

            await("all pods created", Duration.ofSeconds(PODS / 100 + 20), load::done);
            load.check();
            await("every pod bound", () -> recorder.bound() == PODS);
            sampler.shutdown();
            sampler.awaitTermination(10, TimeUnit.SECONDS);

            long wrong = 0;
            long byTwo = 0;
            for (BindingRecorder.Bound b : recorder.inOrder()) {
                long created = load.createdAt(b.pod());
                String v = b.annotation(ItestVersion.ANNOTATION);
                byTwo += "2.0.0".equals(v) ? 1 : 0;
                // created while 2.0.0 served and bound before the rollback began: 2.0.0 decided it
                if (created > twoServes && b.seenNanos() < rollback && !"2.0.0".equals(v)
                        || created > oneServes && !"1.0.0".equals(v)) {
                    wrong++;
                }
            }
            System.out.printf(
                    "scenario 4 (side by side, rollback): %d pods created, %d bound, %d bound twice, %d lost, %d decided by 2.0.0, "
                            + "profile states seen %s, longest pause between bindings %d ms%n",
                    PODS,
                    recorder.bound(),
                    recorder.boundTwice(),
                    PODS - recorder.bound(),
                    byTwo,
                    states,
                    recorder.longestGapMillis());
            assertEquals("bound twice", 0, recorder.boundTwice());
            assertEquals("pods decided by a version other than the one serving while they were scheduled", 0, wrong);
            assertTrue("version 2 decided some pods: " + byTwo, byTwo > 100);
            assertEquals("the profile never paused", Set.of("ready"), states);
        } finally {
            sampler.shutdownNow();
        }
    }
}
