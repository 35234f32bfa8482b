package io.hotsched.kube;

import static io.hotsched.kube.ApiServerFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.embedded.standins.StandIn;
import io.hotsched.plugins.dynamicresources.DynamicResources;
import io.hotsched.plugins.dynamicresources.DynamicResourcesFactory;
import io.hotsched.testing.DeviceResources;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * DynamicResources over HTTP, with the embedded cluster's resourceclaim controller making each
 * pod's claim from its template: the allocation and the pod's reservation are written to the
 * claim's status, two pods created together never get the same device, a pod no device is left
 * for waits with upstream's message, and gets the device a deleted pod leaves.
 */
class DynamicResourcesPathTest {

    private static final String DRIVER = "gpu.example.com";

    @AutoClose
    private ApiServerFixture api;

    @BeforeEach
    void start() throws Exception {
        api = new ApiServerFixture(Nodes.node("n1").cpu("8").build());
        api.server.startStandIns(EnumSet.of(StandIn.RESOURCE_CLAIM));
        api.client.resource(DeviceResources.deviceClass(DRIVER)).create();
        api.client
                .resource(DeviceResources.slice("n1", DRIVER, DeviceResources.devices("gpu-", 2)))
                .create();
        api.client
                .resource(DeviceResources.oneDevice("one-gpu", "default", DRIVER))
                .create();
        Map<String, PluginFactory> plugins =
                ConnectedScheduler.defaultPluginsAnd(DynamicResources.NAME, new DynamicResourcesFactory());
        api.connect(plugins);
    }

    private Pod withGpu(String name) {
        Pod p = Pods.pod(name).cpu("100m").build();
        return new PodBuilder(p)
                .editSpec()
                .addNewResourceClaim()
                .withName("gpu")
                .withResourceClaimTemplateName("one-gpu")
                .endResourceClaim()
                .endSpec()
                .build();
    }

    private ResourceClaim claimOf(String pod) {
        Pod p = api.get(pod);
        String name = p.getStatus().getResourceClaimStatuses().get(0).getResourceClaimName();
        return api.client
                .resources(ResourceClaim.class)
                .inNamespace("default")
                .withName(name)
                .get();
    }

    private static String device(ResourceClaim c) {
        var r = c.getStatus().getAllocation().getDevices().getResults().get(0);
        return r.getDriver() + "/" + r.getPool() + "/" + r.getDevice();
    }

    @Test
    void claimsGetDistinctDevicesAndAPodWithoutOneWaits() throws Exception {
        for (String name : List.of("a", "b", "c")) {
            api.create(withGpu(name));
        }
        try {
            await(
                    "two of three bound",
                    () -> List.of("a", "b", "c").stream()
                                    .filter(n -> api.nodeOf(n) != null)
                                    .count()
                            == 2);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + ": "
                    + List.of("a", "b", "c").stream()
                            .map(n -> n + " " + api.get(n).getStatus().getConditions())
                            .toList()
                    + " " + api.scheduler.scheduler.queue().entries());
        }
        String waiting = List.of("a", "b", "c").stream()
                .filter(n -> api.nodeOf(n) == null)
                .findFirst()
                .orElseThrow();
        try {
            await(
                    waiting + " told no device is left",
                    () -> api.hasScheduledCondition(
                            waiting, "0/1 nodes are available: 1 cannot allocate all claims. still not schedulable"));
        } catch (AssertionError e) {
            throw new AssertionError(
                    e.getMessage() + ": " + api.get(waiting).getStatus().getConditions());
        }
        List<String> bound =
                List.of("a", "b", "c").stream().filter(n -> !n.equals(waiting)).toList();
        ResourceClaim first = claimOf(bound.get(0));
        ResourceClaim second = claimOf(bound.get(1));
        assertNotEquals(device(first), device(second));
        for (var pair : List.of(Map.entry(bound.get(0), first), Map.entry(bound.get(1), second))) {
            ResourceClaim c = pair.getValue();
            assertEquals(
                    api.get(pair.getKey()).getMetadata().getUid(),
                    c.getStatus().getReservedFor().get(0).getUid());
            assertEquals("pods", c.getStatus().getReservedFor().get(0).getResource());
            assertEquals(List.of("n1"), DeviceResources.allocatedNodeField(c).getValues());
        }
        assertNull(api.nodeOf(waiting));

        // the controller frees the deleted pod's claim; its device goes to the waiting pod
        String freed = device(first);
        api.delete(bound.get(0));
        await(waiting + " bound once a device is free", () -> api.nodeOf(waiting) != null);
        await(waiting + "'s claim written", () -> {
            ResourceClaim c = claimOf(waiting);
            return c.getStatus() != null && c.getStatus().getAllocation() != null;
        });
        assertEquals(freed, device(claimOf(waiting)));
    }
}
