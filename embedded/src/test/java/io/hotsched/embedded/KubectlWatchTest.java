package io.hotsched.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.embedded.standins.StandIn;
import io.hotsched.embedded.standins.TestScheduler;
import java.io.IOException;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real kubectl's verbs that watch or page, against the embedded server: {@code get -w} (with
 * {@code --output-watch-events}), {@code get --chunk-size}, {@code wait} and
 * {@code rollout status}, each checked by what kubectl prints and how it ends.
 */
class KubectlWatchTest {

    @TempDir
    static Path dir;

    @RegisterExtension
    static final ApiServer API = new ApiServer()
            .withNodes("node-w")
            .withStandIns(EnumSet.of(StandIn.KUBELET, StandIn.DEPLOYMENT, StandIn.REPLICASET));

    static Kubectl cli;

    @BeforeAll
    static void kubeconfig() throws IOException {
        cli = new Kubectl(API.kubeconfig(dir));
    }

    private static void pod(String ns, String name) {
        API.client().resource(TestObjects.pod(ns, name)).create();
    }

    /** Waits until more than {@code before} watches are open: kubectl's has started. */
    private static void watching(int before) throws InterruptedException {
        assertTrue(
                API.server().awaitOpenWatches(n -> n > before, TimeUnit.SECONDS.toMillis(30)),
                "kubectl opened no watch within 30 s");
    }

    @Test
    void getWatchPrintsANewPodsLineWhenItIsCreated() throws Exception {
        pod("gw", "old");
        try (Kubectl.Running k = cli.started("get", "pods", "-n", "gw", "-w")) {
            k.line(l -> l.startsWith("old "));
            pod("gw", "fresh");
            String line = k.line(l -> l.startsWith("fresh "));
            assertTrue(line.contains("Pending"), line);
        }
    }

    @Test
    void getWatchWithItsEvents() throws Exception {
        int before = API.server().openWatches();
        try (Kubectl.Running k = cli.started("get", "pods", "-n", "events", "-w", "--output-watch-events")) {
            watching(before);
            pod("events", "e1");
            API.client().pods().inNamespace("events").withName("e1").edit(p -> {
                p.getMetadata().setLabels(java.util.Map.of("seen", "yes"));
                return p;
            });
            API.client().pods().inNamespace("events").withName("e1").delete();
            Pattern event = Pattern.compile("(ADDED|MODIFIED|DELETED)\\s+e1\\s.*");
            List<String> kinds = List.of(
                    k.line(l -> event.matcher(l).matches()).split("\\s+")[0],
                    k.line(l -> event.matcher(l).matches()).split("\\s+")[0],
                    k.line(l -> event.matcher(l).matches()).split("\\s+")[0]);
            assertEquals(List.of("ADDED", "MODIFIED", "DELETED"), kinds);
        }
    }

    @Test
    void getPagesThroughWithASmallChunkSize() throws Exception {
        for (String n : List.of("c5", "c3", "c1", "c4", "c2")) {
            pod("chunky", n);
        }
        Kubectl.Run r = cli.run("get", "pods", "-n", "chunky", "--chunk-size=2", "-o", "name", "-v=6")
                .ok();
        List<String> names = r.out().lines().filter(l -> l.startsWith("pod/")).toList();
        assertEquals(List.of("pod/c1", "pod/c2", "pod/c3", "pod/c4", "pod/c5"), names, r.out());
        long continued = r.out()
                .lines()
                .filter(l -> l.contains("GET") && l.contains("continue="))
                .count();
        assertEquals(2, continued, "two more pages after the first: " + r.out());
    }

    @Test
    void waitForAConditionEndsWhenTheWatchBringsIt() throws Exception {
        pod("waits", "w1");
        int before = API.server().openWatches();
        try (Kubectl.Running k =
                cli.started("wait", "--for=condition=Ready", "pod/w1", "-n", "waits", "--timeout=60s")) {
            watching(before);
            API.client().pods().inNamespace("waits").withName("w1").editStatus(p -> {
                p.getStatus()
                        .getConditions()
                        .add(new io.fabric8.kubernetes.api.model.PodConditionBuilder()
                                .withType("Ready")
                                .withStatus("True")
                                .build());
                return p;
            });
            Kubectl.Run r = k.ended();
            assertEquals(0, r.exit(), r.out());
            assertTrue(r.out().contains("pod/w1 condition met"), r.out());
        }
    }

    @Test
    void waitForDeletion() throws Exception {
        pod("waits", "w2");
        int before = API.server().openWatches();
        try (Kubectl.Running k = cli.started("wait", "--for=delete", "pod/w2", "-n", "waits", "--timeout=60s")) {
            watching(before);
            API.client().pods().inNamespace("waits").withName("w2").delete();
            Kubectl.Run r = k.ended();
            assertEquals(0, r.exit(), r.out());
        }
    }

    @Test
    void rolloutStatusEndsOnceTheDeploymentIsAvailable() throws Exception {
        try (TestScheduler scheduler = new TestScheduler(API.client(), "default", "node-w")) {
            API.client().resource(TestObjects.deployment("rolled", 2)).create();
            Kubectl.Run r = cli.run("rollout", "status", "deployment/rolled", "--timeout=60s");
            assertEquals(0, r.exit(), r.out());
            assertTrue(r.out().contains("deployment \"rolled\" successfully rolled out"), r.out());
        }
    }
}
