package io.hotsched.itests;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hotsched.itest.plugins.ItestVersion;
import java.time.Duration;
import java.util.Random;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Version;

/**
 * Issue 7, scenario 1: a plugin bundle replaced with a higher version 20 times through deploy/
 * while pods are created through the API and scheduled onto 200 nodes. Counted from the API
 * server's side: every pod is bound exactly once, none is lost, and every pod created after a
 * swap took effect was decided by that version or a later one.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class UpgradeUnderLoadIT extends KubeClusterSupport {

    static final String CONFIG = defaultProfile("""
            preBind:
              enabled: [{name: ItestVersion}]
            """);
    static final int NODES = 200;
    // 20 swaps, 2500 pods at 100/s in the test command; the soak profile (-Psoak) raises them
    static final int PODS = Integer.getInteger("hotsched.upgrade.pods", 2500);
    static final int PODS_PER_SECOND = Integer.getInteger("hotsched.upgrade.podsPerSecond", 100);
    static final int SWAPS = Integer.getInteger("hotsched.upgrade.swaps", 20);

    @Override
    protected String schedulerYaml() {
        return CONFIG;
    }

    @Test
    public void twentyUpgradesUnderLoadLoseNoPodAndBindNoneTwice() throws Exception {
        loadCluster(NODES);
        byte[] plugin = itestPlugins();
        drop("itest-plugins.jar", TestBundles.withVersion(plugin, "1.0.0"));
        await("profile ready", () -> profileState("default-scheduler").equals("ready"));

        SwapLog swaps = new SwapLog();
        // 200 to 800 ms between one version taking effect and the next being dropped
        Pacing pacing = Pacing.gaps(Duration.ofMillis(200), Duration.ofMillis(800), new Random(7));
        try (BindingRecorder recorder = new BindingRecorder(client, "load");
                PodLoad load = new PodLoad(client, "load", "p-", PODS, PODS_PER_SECOND, "default-scheduler")) {
            for (int i = 1; i <= SWAPS; i++) {
                pacing.awaitNextStep();
                String version = "1.0." + i;
                drop("itest-plugins.jar", TestBundles.withVersion(plugin, version));
                await("version " + version + " serves", () -> version.equals(servingVersion(ItestVersion.NAME)));
                swaps.tookEffect(Version.parseVersion(version));
            }
            int createdDuringSwaps = load.created();
            await("all pods created", Duration.ofSeconds(PODS / PODS_PER_SECOND + 20), load::done);
            load.check();
            try {
                await("every pod bound", Duration.ofSeconds(60), () -> recorder.bound() == PODS);
            } finally {
                System.out.printf("  %d of %d pods bound%n", recorder.bound(), PODS);
            }

            long early = swaps.decidedByOlder(
                    recorder, load, b -> Version.parseVersion(b.annotation(ItestVersion.ANNOTATION)));
            System.out.printf(
                    "scenario 1 (upgrade under load): %d nodes, %d pods created (%d while swapping), %d bound, %d bound twice, "
                            + "%d lost, %d swaps, longest pause between bindings %d ms (%s)%n",
                    NODES,
                    PODS,
                    createdDuringSwaps,
                    recorder.bound(),
                    recorder.boundTwice(),
                    PODS - recorder.bound(),
                    swaps.size(),
                    recorder.longestGapMillis(),
                    recorder.longestGapWhere());
            assertEquals("bound twice", 0, recorder.boundTwice());
            assertEquals("pods decided by a version older than one already in effect when they were created", 0, early);
            assertTrue(
                    "the swaps happened under load: " + createdDuringSwaps + " pods created meanwhile",
                    createdDuringSwaps >= 1000);
        }
    }
}
