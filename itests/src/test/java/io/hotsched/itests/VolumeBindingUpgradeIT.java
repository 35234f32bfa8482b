package io.hotsched.itests;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.storage.StorageClassBuilder;
import io.hotsched.itest.plugins.ItestGang;
import io.hotsched.testing.Volumes;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;

/**
 * Issue 18: the default plugins' bundle upgraded side by side, then the old version removed, again
 * and again, while pods whose claims wait for their first consumer are scheduled onto local volumes.
 * Each pod spends about a second between VolumeBinding's Reserve and the end of its PreBind (the
 * PersistentVolume controller stand-in binds the claim after PreBind wrote the volume's claimRef),
 * and gangs of five wait in Permit for each other, so every swap finds pods whose volumes only the
 * old instance has assumed, not yet written; the new instance must
 * not give those volumes to other claims. Counted from the API server's side: every pod bound once,
 * every claim bound to a volume of its pod's node, no volume claimed twice, and no binding failed
 * on a volume some other pod took (which is what a doubled assumption costs: a 409 on the volume's
 * update, a failed PreBind, a retry).
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class VolumeBindingUpgradeIT extends KubeClusterSupport {

    static final int NODES = 20;
    static final int VOLUMES_PER_NODE = 30;
    static final int PODS = 500;
    static final int PODS_PER_SECOND = 50;
    static final int SWAPS = 4;
    /** Pods wait in Permit for their gang of this many, holding volumes only their instance assumed. */
    static final int GANG = 5;

    static final String BUNDLE = "io.hotsched.plugins.defaults";

    @Override
    protected String schedulerYaml() {
        return defaultProfile("""
                permit:
                  enabled: [{name: ItestGang}]
                """);
    }

    @Override
    @Configuration
    public Option[] configuration() throws IOException {
        return kubePlatform(schedulerYaml(), Map.of(), "PERSISTENT_VOLUME");
    }

    @Test
    public void upgradesWhilePodsAreBetweenReserveAndPreBindBindEveryClaimOnce() throws Exception {
        namespace("load");
        nodes("node-", NODES, "32");
        client.storage()
                .v1()
                .storageClasses()
                .resource(new StorageClassBuilder()
                        .withNewMetadata()
                        .withName("local")
                        .endMetadata()
                        .withProvisioner("kubernetes.io/no-provisioner")
                        .withVolumeBindingMode("WaitForFirstConsumer")
                        .build())
                .create();
        for (int n = 0; n < NODES; n++) {
            for (int v = 0; v < VOLUMES_PER_NODE; v++) {
                client.persistentVolumes()
                        .resource(Volumes.local("pv-" + n + "-" + v, "node-" + n, "1Gi", "local"))
                        .create();
            }
        }
        drop("itest-plugins.jar", itestPlugins());
        dropDynamicResources();
        byte[] defaults = shipped(BUNDLE + "-");
        drop(BUNDLE + "-0.jar", TestBundles.withVersion(defaults, "1.0.0"));
        await("profile ready", () -> profileState("default-scheduler").equals("ready"));

        Pacing pacing = Pacing.gaps(Duration.ofMillis(800), Duration.ofMillis(1500), new Random(18));
        int createdDuringSwaps;
        try (BindingRecorder recorder = new BindingRecorder(client, "load");
                PodLoad load = new PodLoad(
                        client, "load", "p-", PODS, PODS_PER_SECOND, "default-scheduler", this::withClaim)) {
            for (int i = 1; i <= SWAPS; i++) {
                pacing.awaitNextStep();
                String version = "1.0." + i;
                drop(BUNDLE + "-" + i + ".jar", TestBundles.withVersion(defaults, version));
                // after the previous removal, which waits for the old version's pods to finish
                await(
                        "version " + version + " serves",
                        Duration.ofSeconds(90),
                        () -> version.equals(servingVersion("VolumeBinding")));
                // the old version finishes the pods it has; removing it waits for them
                Files.delete(deployDir().resolve(BUNDLE + "-" + (i - 1) + ".jar"));
            }
            createdDuringSwaps = load.created();
            await("all pods created", Duration.ofSeconds(PODS / PODS_PER_SECOND + 20), load::done);
            load.check();
            try {
                await("every pod bound", Duration.ofSeconds(90), () -> recorder.bound() == PODS);
            } catch (AssertionError e) {
                // where the pods that did not bind wait, and why, for the one reading the failure
                System.out.println("VolumeBindingUpgradeIT, pods not bound:\n" + sh("sched:queue") + "\n"
                        + sh("sched:profiles") + "\n" + sh("sched:status"));
                throw e;
            } finally {
                System.out.printf("  %d of %d pods bound%n", recorder.bound(), PODS);
            }
            assertEquals("bound twice", 0, recorder.boundTwice());
        }

        Map<String, PersistentVolumeClaim> claims = await("every claim bound", () -> {
            Map<String, PersistentVolumeClaim> bound = new HashMap<>();
            for (PersistentVolumeClaim c :
                    client.persistentVolumeClaims().inNamespace("load").list().getItems()) {
                if (boundClaim(c) != null) {
                    bound.put(c.getMetadata().getName(), c);
                }
            }
            return bound.size() == PODS ? bound : null;
        });
        Map<String, String> claimOfVolume = new HashMap<>();
        Map<String, String> nodeOfVolume = new HashMap<>();
        for (PersistentVolume pv : client.persistentVolumes().list().getItems()) {
            nodeOfVolume.put(pv.getMetadata().getName(), nodeOf(pv));
        }
        int claimedTwice = 0;
        int offNode = 0;
        for (Pod pod : client.pods().inNamespace("load").list().getItems()) {
            String volume =
                    claims.get("data-" + pod.getMetadata().getName()).getSpec().getVolumeName();
            if (claimOfVolume.put(volume, pod.getMetadata().getName()) != null) {
                claimedTwice++;
            }
            if (!pod.getSpec().getNodeName().equals(nodeOfVolume.get(volume))) {
                offNode++;
            }
        }
        List<Event> failed = client.v1().events().inNamespace("load").list().getItems().stream()
                .filter(e -> "FailedScheduling".equals(e.getReason()))
                .toList();
        // pods waiting in the old version's Permit are sent back when it is removed: not a volume's doing
        List<String> volumeFailures = failed.stream()
                .map(Event::getMessage)
                .filter(m -> m.contains("olume") && !m.contains(") was removed"))
                .toList();
        System.out.printf(
                "volume binding under upgrades: %d nodes, %d local volumes, %d pods (%d created while swapping), "
                        + "%d swaps, %d claims bound, %d volumes claimed twice, %d pods off their volume's node, "
                        + "%d failed scheduling attempts (%d of them on volumes)%n",
                NODES,
                NODES * VOLUMES_PER_NODE,
                PODS,
                createdDuringSwaps,
                SWAPS,
                claimOfVolume.size(),
                claimedTwice,
                offNode,
                failed.size(),
                volumeFailures.size());
        volumeFailures.stream().limit(8).forEach(m -> System.out.println("  " + m));
        assertEquals(PODS, claimOfVolume.size());
        assertEquals("volumes claimed twice", 0, claimedTwice);
        assertEquals("pods off their volume's node", 0, offNode);
        assertEquals("attempts that failed on a volume another pod took", List.of(), volumeFailures);
        assertTrue("the swaps happened under load: " + createdDuringSwaps, createdDuringSwaps >= 150);
    }

    /** The pod with a claim of its own ({@code data-<pod>}, 1Gi of the local class), created first. */
    private Pod withClaim(Pod pod) {
        String claim = "data-" + pod.getMetadata().getName();
        client.persistentVolumeClaims()
                .inNamespace("load")
                .resource(new PersistentVolumeClaimBuilder()
                        .withNewMetadata()
                        .withName(claim)
                        .withNamespace("load")
                        .endMetadata()
                        .withNewSpec()
                        .withStorageClassName("local")
                        .withAccessModes("ReadWriteOnce")
                        .withNewResources()
                        .addToRequests("storage", new Quantity("1Gi"))
                        .endResources()
                        .endSpec()
                        .build())
                .create();
        int index = Integer.parseInt(pod.getMetadata().getName().substring("p-".length()));
        return new PodBuilder(pod)
                .editMetadata()
                .addToLabels(ItestGang.GANG, "g" + index / GANG)
                .addToLabels(ItestGang.SIZE, Integer.toString(GANG))
                .endMetadata()
                .editSpec()
                .addNewVolume()
                .withName("data")
                .withNewPersistentVolumeClaim()
                .withClaimName(claim)
                .endPersistentVolumeClaim()
                .endVolume()
                .endSpec()
                .build();
    }

    private static PersistentVolumeClaim boundClaim(PersistentVolumeClaim c) {
        return c != null
                        && c.getStatus() != null
                        && "Bound".equals(c.getStatus().getPhase())
                        && c.getSpec().getVolumeName() != null
                ? c
                : null;
    }

    /** The node a local volume is on: its node affinity's one hostname value. */
    private static String nodeOf(PersistentVolume pv) {
        return pv.getSpec()
                .getNodeAffinity()
                .getRequired()
                .getNodeSelectorTerms()
                .get(0)
                .getMatchExpressions()
                .get(0)
                .getValues()
                .get(0);
    }
}
