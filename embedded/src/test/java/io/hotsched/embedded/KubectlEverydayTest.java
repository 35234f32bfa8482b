package io.hotsched.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.hotsched.embedded.standins.StandIn;
import java.io.IOException;
import java.nio.file.Path;
import java.util.EnumSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The verbs a new user types first, with the real kubectl and the controller stand-ins, each
 * checked through the API: run, apply (and apply again, changed), get in each output, scale,
 * delete. ({@link KubectlVerbsTest} has label, annotate, patch, cordon and drain; {@link
 * EvictionTest} drain against a budget.)
 */
class KubectlEverydayTest {

    @TempDir
    static Path dir;

    @RegisterExtension
    static final ApiServer API = new ApiServer()
            .withNodes("node-e")
            .withStandIns(EnumSet.of(StandIn.KUBELET, StandIn.DEPLOYMENT, StandIn.REPLICASET));

    static Kubectl cli;

    @BeforeAll
    static void kubeconfig() throws IOException {
        cli = new Kubectl(API.kubeconfig(dir));
    }

    @Test
    void runMakesAPodWithTheDefaultsARealServerGives() throws Exception {
        cli.run("run", "solo", "--image=nginx:1.27", "--labels=app=solo").ok();
        Pod p = API.client().pods().inNamespace("default").withName("solo").get();
        assertEquals("nginx:1.27", p.getSpec().getContainers().get(0).getImage());
        assertEquals("solo", p.getMetadata().getLabels().get("app"));
        assertEquals("default-scheduler", p.getSpec().getSchedulerName());
        assertEquals("Pending", p.getStatus().getPhase());
    }

    @Test
    void applyCreatesThenChangesOnlyWhatTheManifestChanged() throws Exception {
        String manifest = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, labels: {tier: web}}\n"
                + "data: {mode: fast}\n";
        assertTrue(cli.withInput(manifest, "apply", "-f", "-").ok().out().contains("configmap/settings created"));
        cli.run("label", "configmap", "settings", "added-by-hand=yes").ok();
        Kubectl.Run again = cli.withInput(manifest.replace("fast", "safe"), "apply", "-f", "-")
                .ok();
        assertTrue(again.out().contains("configmap/settings configured"), again.out());
        var cm = API.client()
                .configMaps()
                .inNamespace("default")
                .withName("settings")
                .get();
        assertEquals("safe", cm.getData().get("mode"));
        // a three-way merge keeps what another writer added
        assertEquals("yes", cm.getMetadata().getLabels().get("added-by-hand"));
        assertTrue(cm.getMetadata().getAnnotations().containsKey("kubectl.kubernetes.io/last-applied-configuration"));
        assertTrue(cli.withInput(manifest.replace("fast", "safe"), "apply", "-f", "-")
                .ok()
                .out()
                .contains("configmap/settings unchanged"));
    }

    @Test
    void getPrintsEachOutputFormat() throws Exception {
        cli.run("run", "shown", "--image=pause", "--overrides={\"spec\":{\"nodeName\":\"node-e\"}}")
                .ok();
        ApiServer.until(
                API.client().pods().inNamespace("default").withName("shown"),
                p -> "Running".equals(p.getStatus().getPhase()));
        String wide = cli.run("get", "pod", "shown", "-o", "wide").ok().out();
        assertTrue(wide.lines().findFirst().orElse("").matches("NAME +READY +STATUS +RESTARTS +AGE +IP +NODE.*"), wide);
        assertTrue(wide.contains("node-e") && wide.contains("Running"), wide);
        String yaml = cli.run("get", "pod", "shown", "-o", "yaml").ok().out();
        assertTrue(yaml.contains("kind: Pod") && yaml.contains("nodeName: node-e"), yaml);
        String json = cli.run("get", "pod", "shown", "-o", "json").ok().out();
        assertTrue(json.contains("\"nodeName\": \"node-e\""), json);
        String name = cli.run("get", "pod", "shown", "-o", "jsonpath={.spec.nodeName}")
                .ok()
                .out();
        assertEquals("node-e", name.strip());
    }

    @Test
    void scaleChangesTheDeploymentsPods() throws Exception {
        cli.run("create", "deployment", "grow", "--image=pause", "--replicas=2").ok();
        API.podsUntil("default", "grow", l -> l.size() == 2);
        cli.run("scale", "deployment", "grow", "--replicas=5").ok();
        API.podsUntil("default", "grow", l -> l.size() == 5);
        cli.run("scale", "deployment", "grow", "--replicas=1").ok();
        API.podsUntil(
                "default",
                "grow",
                l -> l.stream()
                                .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                                .count()
                        == 1);
    }

    @Test
    void deleteRemovesWhatItNames() throws Exception {
        cli.run("run", "gone", "--image=pause").ok();
        cli.run("create", "configmap", "gone-too", "--from-literal=a=b").ok();
        Kubectl.Run deleted = cli.run("delete", "pod/gone", "configmap/gone-too", "--wait=true")
                .ok();
        assertTrue(deleted.out().contains("pod \"gone\" deleted"), deleted.out());
        assertNull(API.client().pods().inNamespace("default").withName("gone").get());
        assertNull(API.client()
                .configMaps()
                .inNamespace("default")
                .withName("gone-too")
                .get());
        Kubectl.Run missing = cli.run("delete", "pod", "gone");
        assertTrue(missing.exit() != 0 && missing.out().contains("pods \"gone\" not found"), missing.out());
    }
}
