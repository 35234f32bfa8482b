package io.hotsched.itests;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hotsched.itest.plugins.ItestVersion;
import java.time.Duration;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Version;

/**
 * Issue 7, scenario 7: scheduler.yaml changed 20 times under load (args, weights, enabled
 * plugins), with a bad version after each good one. Each good one applies as a whole (pods
 * created after it carry its tag); each bad one is refused and changes nothing (pods created
 * after it still carry the last good tag); no pod is lost or bound twice.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class ConfigReloadUnderLoadIT extends KubeClusterSupport {

    static final int PODS = 2500;
    static final int PODS_PER_SECOND = 100;
    static final int CHANGES = 20;

    static String config(int k) {
        return """
                apiVersion: kubescheduler.config.k8s.io/v1
                kind: KubeSchedulerConfiguration
                profiles:
                - schedulerName: default-scheduler
                  plugins:
                    score:
                      enabled: [{name: NodeResourcesFit, weight: %d}]
                      disabled: [%s]
                    preBind:
                      enabled: [{name: ItestVersion}]
                  pluginConfig:
                  - name: ItestVersion
                    args: {tag: good-%d}
                """.formatted(1 + k % 3, k % 2 == 0 ? "{name: ImageLocality}" : "", k);
    }

    /**
     * Bad in turn: YAML that does not parse, a percentage out of range, args the plugin refuses, a
     * negative weight. (An unknown plugin name is not among them: hotsched waits for a bundle to
     * provide it, pausing the profile, by design.)
     */
    static String bad(int k) {
        return switch (k % 4) {
            case 0 -> config(k).replace("profiles:", "profiles: [");
            case 1 -> config(k).replace("profiles:", "percentageOfNodesToScore: 150\nprofiles:");
            case 2 -> config(k).replace("tag: good-" + k, "tag: Not_Valid");
            default -> config(k).replace("weight: " + (1 + k % 3), "weight: -1");
        };
    }

    @Override
    protected String schedulerYaml() {
        return config(0);
    }

    @Test
    public void goodChangesApplyWholeAndBadOnesChangeNothing() throws Exception {
        loadCluster(200);
        drop("itest-plugins.jar", itestPlugins());
        await("profile ready", () -> profileState("default-scheduler").equals("ready"));

        SwapLog changes = new SwapLog();
        changes.tookEffect(new Version(0, 0, 0));
        int refused = 0;
        try (BindingRecorder recorder = new BindingRecorder(client, "load");
                PodLoad load = new PodLoad(client, "load", "p-", PODS, PODS_PER_SECOND, "default-scheduler")) {
            // under the load: a good change every 600 ms, its bad successor 200 ms after it
            Pacing pacing = Pacing.fixedRate(Duration.ofMillis(400), Duration.ofMillis(200));
            for (int k = 1; k <= CHANGES; k++) {
                pacing.awaitNextStep();
                writeSchedulerYaml(config(k));
                String applied = admin.reload();
                assertTrue(applied, applied.startsWith("Applied"));
                changes.tookEffect(new Version(k, 0, 0));
                pacing.awaitNextStep();
                writeSchedulerYaml(bad(k));
                String answer = admin.reload();
                assertTrue("bad version " + k + " refused: " + answer, answer.startsWith("Refused"));
                refused++;
            }
            // bounded as in UpgradeUnderLoadIT, by the load's length and 20 s: on a busy machine it falls behind its
            // rate
            await("all pods created", Duration.ofSeconds(PODS / PODS_PER_SECOND + 20), load::done);
            load.check();
            await("every pod bound", () -> recorder.bound() == PODS);

            // the tag good-k stands for version k.0.0: created after change k applied, decided by k or a later good one
            long wrong = changes.decidedByOlder(
                    recorder,
                    load,
                    b -> new Version(
                            Integer.parseInt(
                                    b.annotation(ItestVersion.TAG_ANNOTATION).substring("good-".length())),
                            0,
                            0));
            System.out.printf(
                    "scenario 7 (config reload under load): %d pods created, %d bound, %d bound twice, %d lost, %d good changes "
                            + "applied, %d bad ones refused, %d pods decided by an older configuration, longest pause between bindings %d ms%n",
                    PODS,
                    recorder.bound(),
                    recorder.boundTwice(),
                    PODS - recorder.bound(),
                    CHANGES,
                    refused,
                    wrong,
                    recorder.longestGapMillis());
            assertEquals("bound twice", 0, recorder.boundTwice());
            assertEquals("pods decided by a configuration older than the one applied when they were created", 0, wrong);
            try (PodLoad last = new PodLoad(client, "load", "last-", 1, 1, "default-scheduler")) {
                await("the last pod bound", () -> recorder.of("last-0") != null);
                assertEquals(
                        "the last good configuration still runs",
                        "good-" + CHANGES,
                        recorder.of("last-0").annotation(ItestVersion.TAG_ANNOTATION));
            }
        }
    }
}
