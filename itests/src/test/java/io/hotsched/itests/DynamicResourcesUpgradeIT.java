package io.hotsched.itests;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatus;
import io.hotsched.itest.plugins.ItestHold;
import io.hotsched.testing.DeviceResources;
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
 * Issue 19: the DynamicResources bundle upgraded side by side, then the old version removed, again
 * and again, while pods whose claims come from a template are created. Each pod waits 1.5 s in
 * Permit and is then bound, so at every swap the old instance holds devices it allocated in
 * Reserve and writes them after the new one has started allocating; the new instance must not
 * give those devices to other claims (it reads the old one's records from the framework's
 * Reservations). Four nodes, so new pods keep landing where the old instance's are in flight.
 * Counted from the API server's side: every pod bound once, every pod's claim allocated to a device
 * of its node and reserved for it, and no device in two claims' allocations.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class DynamicResourcesUpgradeIT extends KubeClusterSupport {

    static final int NODES = 4;
    static final int DEVICES_PER_NODE = 110;
    static final int PODS = 400;
    static final int PODS_PER_SECOND = 20;
    static final int SWAPS = 3;
    /** Each pod waits this long in Permit, its devices allocated in Reserve and not yet written. */
    static final int HOLD_MILLIS = 1500;

    static final String BUNDLE = "io.hotsched.plugin.dynamicresources";
    static final String DRIVER = "gpu.example.com";

    @Override
    protected String schedulerYaml() {
        return defaultProfile("""
                permit:
                  enabled: [{name: ItestHold}]
                """);
    }

    @Override
    @Configuration
    public Option[] configuration() throws IOException {
        return kubePlatform(schedulerYaml(), Map.of(), "RESOURCE_CLAIM");
    }

    @Test
    public void upgradesWhileDevicesAreInFlightGiveNoDeviceTwice() throws Exception {
        namespace("load");
        nodes("node-", NODES, "32");
        driver();
        drop("itest-plugins.jar", itestPlugins());
        drop("io.hotsched.plugins.defaults.jar", shipped("io.hotsched.plugins.defaults-"));
        byte[] dra = shipped(BUNDLE + "-");
        drop(BUNDLE + "-0.jar", TestBundles.withVersion(dra, "1.0.0"));
        await("profile ready", () -> profileState("default-scheduler").equals("ready"));

        Pacing pacing = Pacing.gaps(Duration.ofMillis(800), Duration.ofMillis(1500), new Random(19));
        int createdBeforeLastSwap = 0;
        try (BindingRecorder recorder = new BindingRecorder(client, "load");
                PodLoad load = new PodLoad(
                        client, "load", "p-", PODS, PODS_PER_SECOND, "default-scheduler", this::withClaim)) {
            for (int i = 1; i <= SWAPS; i++) {
                pacing.awaitNextStep();
                String version = "1.0." + i;
                createdBeforeLastSwap = load.created();
                drop(BUNDLE + "-" + i + ".jar", TestBundles.withVersion(dra, version));
                await(
                        "version " + version + " serves",
                        Duration.ofSeconds(90),
                        () -> version.equals(servingVersion("DynamicResources")));
                // the old version finishes the pods it has; removing it waits for them
                Files.delete(deployDir().resolve(BUNDLE + "-" + (i - 1) + ".jar"));
            }
            await("all pods created", Duration.ofSeconds(PODS / PODS_PER_SECOND + 20), load::done);
            load.check();
            try {
                await("every pod bound", Duration.ofSeconds(90), () -> recorder.bound() == PODS);
            } finally {
                System.out.printf("  %d of %d pods bound%n", recorder.bound(), PODS);
            }
            assertEquals("bound twice", 0, recorder.boundTwice());
        }

        // read generically: the typed resource.k8s.io classes of the test's class path are not the client's
        Map<String, GenericKubernetesResource> claims = await("every claim allocated", () -> {
            Map<String, GenericKubernetesResource> allocated = new HashMap<>();
            for (GenericKubernetesResource c : client.genericKubernetesResources("resource.k8s.io/v1", "ResourceClaim")
                    .inNamespace("load")
                    .list()
                    .getItems()) {
                if (c.get("status", "allocation") != null) {
                    allocated.put(c.getMetadata().getName(), c);
                }
            }
            return allocated.size() == PODS ? allocated : null;
        });
        Map<String, String> claimOfDevice = new HashMap<>();
        int givenTwice = 0;
        for (GenericKubernetesResource c : claims.values()) {
            List<Map<String, Object>> results = c.get("status", "allocation", "devices", "results");
            for (Map<String, Object> r : results) {
                String device = r.get("driver") + "/" + r.get("pool") + "/" + r.get("device");
                String before = claimOfDevice.put(device, c.getMetadata().getName());
                if (before != null) {
                    givenTwice++;
                    System.out.println("  device " + device + " is in claims " + before + " and "
                            + c.getMetadata().getName());
                }
            }
        }
        int offNode = 0;
        int notReserved = 0;
        for (Pod pod : client.pods().inNamespace("load").list().getItems()) {
            List<PodResourceClaimStatus> statuses = pod.getStatus().getResourceClaimStatuses();
            GenericKubernetesResource claim = claims.get(statuses.get(0).getResourceClaimName());
            // one pool per node, named after it
            if (!pod.getSpec()
                    .getNodeName()
                    .equals(claim.get("status", "allocation", "devices", "results", 0, "pool"))) {
                offNode++;
            }
            List<Map<String, Object>> reservedFor = claim.get("status", "reservedFor");
            if (reservedFor == null
                    || reservedFor.size() != 1
                    || !pod.getMetadata().getUid().equals(reservedFor.get(0).get("uid"))) {
                notReserved++;
            }
        }
        System.out.printf(
                "DynamicResources under upgrades: %d nodes, %d devices, %d pods (%d created when the last swap began), "
                        + "%d swaps, %d claims allocated, %d devices given twice, %d pods off their device's node, "
                        + "%d claims not reserved for their pod alone%n",
                NODES,
                NODES * DEVICES_PER_NODE,
                PODS,
                createdBeforeLastSwap,
                SWAPS,
                claims.size(),
                givenTwice,
                offNode,
                notReserved);
        assertEquals("devices given twice", 0, givenTwice);
        assertEquals(PODS, claimOfDevice.size());
        assertEquals("pods off their device's node", 0, offNode);
        assertEquals("claims not reserved for their pod", 0, notReserved);
        assertTrue("the last swap happened under load: " + createdBeforeLastSwap, createdBeforeLastSwap < PODS);
    }

    /** The DeviceClass, a template asking for one of its devices, and each node's slice of devices. */
    private void driver() {
        client.resource(DeviceResources.deviceClass(DRIVER)).create();
        client.resource(DeviceResources.oneDevice("one-gpu", "load", DRIVER)).create();
        for (int n = 0; n < NODES; n++) {
            client.resource(DeviceResources.slice(
                            "node-" + n, DRIVER, DeviceResources.devices("gpu-", DEVICES_PER_NODE)))
                    .create();
        }
    }

    /** The pod with a claim from the one-gpu template (the resourceclaim stand-in makes it), held in Permit. */
    private Pod withClaim(Pod pod) {
        return new PodBuilder(pod)
                .editMetadata()
                .addToLabels(ItestHold.HOLD_MILLIS, Integer.toString(HOLD_MILLIS))
                .endMetadata()
                .editSpec()
                .addNewResourceClaim()
                .withName("gpu")
                .withResourceClaimTemplateName("one-gpu")
                .endResourceClaim()
                .endSpec()
                .build();
    }
}
