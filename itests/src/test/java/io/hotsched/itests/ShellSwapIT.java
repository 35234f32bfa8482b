package io.hotsched.itests;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hotsched.itest.plugins.ItestVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.osgi.framework.Version;

/**
 * Issue 7, scenario 5: the same upgrades done from the Gogo shell under load: {@code install} and
 * {@code start}, ten times {@code update ID URL} followed by {@code refresh}, a second version
 * installed and started next to it, then {@code uninstall}ed (rollback). Counted
 * from the API server's side.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class ShellSwapIT extends KubeClusterSupport {

    static final int PODS = 2000;
    static final int UPDATES = 10;
    /** Pods bound before the first update, and by 2.0.0 before the rollback: about a second of the load. */
    static final int LOAD_BEFORE_SWAP = 100;

    @Override
    protected String schedulerYaml() {
        return UpgradeUnderLoadIT.CONFIG;
    }

    /** The plugin bundle at {@code version}, as a file the shell can install from. */
    private static String file(byte[] plugin, String version) throws IOException {
        Path f = Files.createTempFile("itest-plugins-" + version + "-", ".jar");
        Files.write(f, TestBundles.withVersion(plugin, version));
        f.toFile().deleteOnExit();
        return f.toUri().toString();
    }

    /** {@code install URL}, then {@code start ID}, as typed in the shell. */
    private void installAndStart(String url) {
        String installed = sh("install " + url);
        assertTrue(installed, installed.trim().startsWith("Bundle ID: "));
        sh("start " + installed.trim().substring("Bundle ID: ".length()));
    }

    private long idOf(String version) {
        return bundle("io.hotsched.itest.plugins", version)
                .map(Bundle::getBundleId)
                .orElseThrow();
    }

    @Test
    public void upgradesAndARollbackFromTheShellLoseNoPod() throws Exception {
        loadCluster(200);
        byte[] plugin = itestPlugins();
        SwapLog swaps = new SwapLog();
        installAndStart(file(plugin, "1.0.0"));
        await("1.0.0 serves", () -> "1.0.0".equals(servingVersion(ItestVersion.NAME)));
        await("profile ready", () -> profileState("default-scheduler").equals("ready"));
        long id = idOf("1.0.0");

        try (BindingRecorder recorder = new BindingRecorder(client, "load");
                PodLoad load = new PodLoad(client, "load", "p-", PODS, 100, "default-scheduler")) {
            await("1.0.0 binding under load", () -> recorder.bound() >= LOAD_BEFORE_SWAP);
            Pacing pacing = Pacing.gaps(Duration.ofMillis(300));
            for (int i = 1; i <= UPDATES; i++) {
                String version = "1.0." + i;
                sh("update " + id + " " + file(plugin, version));
                sh("refresh " + id);
                await("version " + version + " serves", () -> version.equals(servingVersion(ItestVersion.NAME)));
                swaps.tookEffect(Version.parseVersion(version));
                pacing.awaitNextStep();
            }
            String v2 = "2.0.0";
            installAndStart(file(plugin, v2));
            await("2.0.0 serves next to 1.0." + UPDATES, () -> v2.equals(servingVersion(ItestVersion.NAME)));
            assertEquals("standby", pluginsState(ItestVersion.NAME, "1.0." + UPDATES));
            long twoServes = System.nanoTime();
            await(
                    "2.0.0 deciding pods created after it took over",
                    () -> recorder.inOrder().stream()
                                    .filter(b -> load.createdAt(b.pod()) > twoServes
                                            && v2.equals(b.annotation(ItestVersion.ANNOTATION)))
                                    .count()
                            >= LOAD_BEFORE_SWAP);
            long rollback = System.nanoTime();
            // nothing is wired to a plugin bundle, so uninstall needs no refresh (and Gogo command
            // 1.1.2's refresh without bundle ids fails with a NullPointerException)
            sh("uninstall " + idOf(v2));
            await(
                    "1.0." + UPDATES + " serves again",
                    () -> ("1.0." + UPDATES).equals(servingVersion(ItestVersion.NAME)));
            long oneServes = System.nanoTime();

            await("all pods created", Duration.ofSeconds(PODS / 100 + 20), load::done);
            load.check();
            await("every pod bound", () -> recorder.bound() == PODS);
            long wrong = swaps.decidedByOlder(
                    recorder, load, b -> Version.parseVersion(b.annotation(ItestVersion.ANNOTATION)));
            for (BindingRecorder.Bound b : recorder.inOrder()) {
                long created = load.createdAt(b.pod());
                Version v = Version.parseVersion(b.annotation(ItestVersion.ANNOTATION));
                // created while 2.0.0 served and bound before the rollback began: 2.0.0 decided it
                if (created > twoServes && b.seenNanos() < rollback && !v.equals(Version.parseVersion(v2))
                        || created > oneServes && !v.equals(Version.parseVersion("1.0." + UPDATES))) {
                    wrong++;
                }
            }
            System.out.printf(
                    "scenario 5 (shell path): %d pods created, %d bound, %d bound twice, %d lost, %d shell updates + install, "
                            + "uninstall of 2.0.0, longest pause between bindings %d ms%n",
                    PODS,
                    recorder.bound(),
                    recorder.boundTwice(),
                    PODS - recorder.bound(),
                    UPDATES,
                    recorder.longestGapMillis());
            assertEquals("bound twice", 0, recorder.boundTwice());
            assertEquals("pods decided by a version other than the one serving while they were scheduled", 0, wrong);
        }
    }
}
