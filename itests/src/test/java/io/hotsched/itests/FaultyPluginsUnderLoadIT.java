package io.hotsched.itests;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hotsched.itest.plugins.ItestFaulty;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;

/**
 * Issue 7, scenario 6: while one profile schedules under load, bad bundles arrive in deploy/ (a
 * truncated jar, a jar without manifest, a bundle built for another major version of the API) and
 * a plugin of a second profile misbehaves in turn (throws in Filter, returns a score of 500,
 * hangs in Filter for 5 s, far past the 1 s time-out). Each is refused or isolated with a
 * message naming it; the throwing plugin is quarantined and shows so in sched:plugins; the hanging
 * call is given up at its time-out while the loop goes on, and its plugin shows stuck until the
 * call returns; every pod of the first profile is bound once.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class FaultyPluginsUnderLoadIT extends KubeClusterSupport {

    static String config(String mode) {
        return """
                apiVersion: kubescheduler.config.k8s.io/v1
                kind: KubeSchedulerConfiguration
                profiles:
                - schedulerName: default-scheduler
                - schedulerName: faulty-scheduler
                  plugins:
                    filter:
                      enabled: [{name: ItestFaulty}]
                    score:
                      enabled: [{name: ItestFaulty}]
                  pluginConfig:
                  - name: ItestFaulty
                    args: {mode: %s, sleepNode: node-0, sleepMillis: 5000}
                """.formatted(mode);
    }

    static final int PODS = 1500;

    @Override
    protected String schedulerYaml() {
        return config("throw");
    }

    private void reconfigure(String mode) throws IOException {
        writeSchedulerYaml(config(mode));
        String answer = admin.reload();
        assertTrue(answer, answer.startsWith("Applied"));
    }

    private String refusal(String file) {
        return await(
                "a line about " + file,
                () -> log.problemsMentioning(file).isEmpty()
                        ? null
                        : log.problemsMentioning(file).get(0).text());
    }

    /** {@code count} pods named {@code prefix}0.. for the faulty profile. */
    private void faultyPods(String prefix, int count) throws Exception {
        try (PodLoad one = new PodLoad(client, "load", prefix, count, 50, "faulty-scheduler")) {
            await(prefix + " created", Duration.ofSeconds(count / 50 + 20), one::done);
            one.check();
        }
    }

    @Test
    public void badBundlesAndMisbehavingPluginsAreIsolatedWhileTheRestSchedules() throws Exception {
        loadCluster(50);
        drop("itest-plugins.jar", itestPlugins());
        await(
                "profiles ready",
                () -> profileState("default-scheduler").equals("ready")
                        && profileState("faulty-scheduler").equals("ready"));

        try (BindingRecorder recorder = new BindingRecorder(client, "load");
                PodLoad load = new PodLoad(client, "load", "a-", PODS, 100, "default-scheduler")) {
            await("the healthy profile binding under load", () -> recorder.bound() >= 100);
            byte[] whole = TestBundles.bundle("io.hotsched.itest.truncated", "1.0.0");
            drop("truncated.jar", Arrays.copyOf(whole, whole.length / 2));
            drop("nomanifest.jar", TestBundles.jarWithoutManifest());
            drop(
                    "wrong-api.jar",
                    TestBundles.bundle(
                            "io.hotsched.itest.wrongapi",
                            "1.0.0",
                            Map.of("Import-Package", "io.hotsched.api.framework;version=\"[2,3)\"")));
            String truncated = refusal("truncated.jar");
            String noManifest = refusal("nomanifest.jar");
            String wrongApi = refusal("wrong-api.jar");
            assertTrue(truncated, truncated.startsWith("Refused ") && truncated.contains("truncated"));
            assertTrue(noManifest, noManifest.startsWith("Refused ") && noManifest.contains("no META-INF/MANIFEST.MF"));
            assertTrue(wrongApi, wrongApi.contains("io.hotsched.api.framework"));

            // throws in Filter: every attempt fails with its message; after 5 in a row it is quarantined
            faultyPods("f-", 5);
            await(
                    "ItestFaulty quarantined",
                    () -> pluginsState(ItestFaulty.NAME, "0.1.0.SNAPSHOT").equals("quarantined"));
            assertTrue(
                    sh("sched:explain load/f-0"),
                    sh("sched:explain load/f-0")
                            .contains("running \"ItestFaulty\" filter plugin: ItestFaulty broke on purpose"));
            assertTrue(
                    profileState("faulty-scheduler"),
                    profileState("faulty-scheduler").startsWith("paused"));

            // a score of 500: the attempt fails with upstream's message
            reconfigure("score500");
            sh("sched:release " + ItestFaulty.NAME);
            faultyPods("g-", 1);
            await(
                    "the out-of-range score named",
                    () -> sh("sched:explain load/g-0").contains("plugin \"ItestFaulty\" returns an invalid score 500"));

            // 5 s in Filter on one node, past the 1 s time-out: the attempt is given up at the time-out and
            // counted against the plugin, which serves no attempt until the call returns; the loop goes on
            reconfigure("sleep");
            sh("sched:release " + ItestFaulty.NAME);
            faultyPods("h-", 1);
            await(
                    "the plugin shown stuck",
                    () -> pluginsState(ItestFaulty.NAME, "0.1.0.SNAPSHOT").equals("stuck"));
            List<String> faultyPods = List.of("f-0", "f-1", "f-2", "f-3", "f-4", "g-0", "h-0");
            String givenUp = await(
                    "the given-up call named in sched:explain",
                    () -> faultyPods.stream()
                            .map(p -> sh("sched:explain load/" + p))
                            .filter(
                                    e -> e.matches(
                                            "(?s).*running \"ItestFaulty\" filter plugin: still running after \\d+ms, over the 1000ms time-out for Filter.*"))
                            .findFirst()
                            .orElse(null));
            assertTrue(givenUp, givenUp.contains("over the 1000ms time-out for Filter"));
            await(
                    "it serves again once the call returns",
                    () -> pluginsState(ItestFaulty.NAME, "0.1.0.SNAPSHOT").equals("active"));

            await("all pods created", Duration.ofSeconds(PODS / 100 + 20), load::done);
            load.check();
            await(
                    "every pod of the healthy profile bound",
                    () -> recorder.named("a-").size() == PODS);
            long faultyBound = recorder.inOrder().stream()
                    .filter(b -> !b.pod().startsWith("a-"))
                    .count();
            System.out.printf(
                    "scenario 6 (bad bundles, faulty plugins): %d pods created for the healthy profile, %d bound, %d bound twice, "
                            + "%d lost; 3 bad files refused; throw -> quarantined, score 500 named, a 5 s Filter given up at 1 s (plugin stuck until it returned); "
                            + "%d pods of the faulty profile bound; longest pause between bindings %d ms (%s)%n",
                    PODS,
                    recorder.named("a-").size(),
                    recorder.boundTwice(),
                    PODS - recorder.named("a-").size(),
                    faultyBound,
                    recorder.longestGapMillis(),
                    recorder.longestGapWhere());
            assertEquals("bound twice", 0, recorder.boundTwice());
            assertEquals("no pod of the faulty profile was bound", 0, faultyBound);
        }
    }
}
