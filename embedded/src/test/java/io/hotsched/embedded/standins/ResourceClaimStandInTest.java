package io.hotsched.embedded.standins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatus;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplateBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.hotsched.embedded.EmbeddedApiServer;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The ResourceClaim stand-in over HTTP: claims from a pod's templates, the pod's status, and their end. */
class ResourceClaimStandInTest {

    static EmbeddedApiServer server;
    static KubernetesClient client;

    @BeforeAll
    static void start() throws Exception {
        server = new EmbeddedApiServer().start(0);
        client = server.client();
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName("dra")
                        .endMetadata()
                        .build())
                .create();
        server.startStandIns(EnumSet.of(StandIn.RESOURCE_CLAIM));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    static ResourceClaimTemplate template(String name) {
        return new ResourceClaimTemplateBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("dra")
                .endMetadata()
                .withNewSpec()
                .withNewMetadata()
                .addToLabels("team", "ml")
                .addToAnnotations("note", "from the template")
                .endMetadata()
                .withNewSpec()
                .withNewDevices()
                .addNewRequest()
                .withName("gpu")
                .withNewExactly()
                .withDeviceClassName("gpu.example.com")
                .withCount(2L)
                .endExactly()
                .endRequest()
                .endDevices()
                .endSpec()
                .endSpec()
                .build();
    }

    static Pod pod(String name, String podClaim, String template) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("dra")
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("c")
                .withImage("pause")
                .endContainer()
                .addNewResourceClaim()
                .withName(podClaim)
                .withResourceClaimTemplateName(template)
                .endResourceClaim()
                .endSpec()
                .build();
    }

    /** Waits for the pod's status to name a claim for {@code podClaim} and returns that claim. */
    static ResourceClaim claimOf(String pod, String podClaim) {
        Pod p = client.pods()
                .inNamespace("dra")
                .withName(pod)
                .waitUntilCondition(
                        x -> x != null
                                && x.getStatus() != null
                                && x.getStatus().getResourceClaimStatuses() != null
                                && x.getStatus().getResourceClaimStatuses().stream()
                                        .anyMatch(s -> podClaim.equals(s.getName())),
                        30,
                        TimeUnit.SECONDS);
        List<PodResourceClaimStatus> statuses = p.getStatus().getResourceClaimStatuses();
        assertEquals(1, statuses.size(), statuses.toString());
        String name = statuses.get(0).getResourceClaimName();
        ResourceClaim claim = client.resources(ResourceClaim.class)
                .inNamespace("dra")
                .withName(name)
                .get();
        assertTrue(claim != null, "the pod's status names " + name + ", which does not exist");
        OwnerReference owner = claim.getMetadata().getOwnerReferences().get(0);
        assertEquals(
                List.of("v1", "Pod", pod, p.getMetadata().getUid(), true, true),
                List.of(
                        owner.getApiVersion(),
                        owner.getKind(),
                        owner.getName(),
                        owner.getUid(),
                        owner.getController(),
                        owner.getBlockOwnerDeletion()));
        assertEquals(podClaim, claim.getMetadata().getAnnotations().get("resource.kubernetes.io/pod-claim-name"));
        return claim;
    }

    static void awaitGone(String claim) {
        client.resources(ResourceClaim.class)
                .inNamespace("dra")
                .withName(claim)
                .waitUntilCondition(Objects::isNull, 30, TimeUnit.SECONDS);
    }

    @Test
    void aPodsTemplateBecomesItsClaimAndTheClaimGoesWithThePod() {
        ResourceClaimTemplate t = client.resource(template("two-gpus")).create();
        client.resource(pod("trainer", "gpus", "two-gpus")).create();

        ResourceClaim claim = claimOf("trainer", "gpus");
        assertTrue(
                claim.getMetadata().getName().matches("trainer-gpus-[bcdfghjklmnpqrstvwxz2456789]{5}"),
                claim.getMetadata().getName());
        assertEquals(Map.of("team", "ml"), claim.getMetadata().getLabels());
        assertEquals("from the template", claim.getMetadata().getAnnotations().get("note"));
        assertEquals(t.getSpec().getSpec(), claim.getSpec());
        assertEquals("resource.k8s.io/v1", claim.getApiVersion());

        client.pods().inNamespace("dra").withName("trainer").delete();
        awaitGone(claim.getMetadata().getName());
    }

    @Test
    void aPodCreatedBeforeItsTemplateGetsItsClaimWhenTheTemplateArrives() {
        client.resource(pod("early", "fpga", "late-template")).create();
        client.resource(template("late-template")).create();
        ResourceClaim claim = claimOf("early", "fpga");
        assertTrue(
                claim.getMetadata().getName().startsWith("early-fpga-"),
                claim.getMetadata().getName());
    }

    @Test
    void anEndedPodsClaimIsDeletedWhileThePodStays() {
        client.resource(template("batch-gpu")).create();
        client.resource(pod("job-1", "gpu", "batch-gpu")).create();
        ResourceClaim claim = claimOf("job-1", "gpu");
        client.pods()
                .inNamespace("dra")
                .withName("job-1")
                .subresource("status")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"status\":{\"phase\":\"Succeeded\"}}");
        awaitGone(claim.getMetadata().getName());
        assertTrue(client.pods().inNamespace("dra").withName("job-1").get() != null);
    }

    @Test
    void generatedNamesAreCutAsUpstreamCutsThem() {
        assertEquals("web-0-gpu-", ResourceClaimStandIn.namePrefix("web-0", "gpu"));
        String pod = "p".repeat(50);
        String claim = "c".repeat(20);
        // 72 characters: both cut to their share of 57, joined by one hyphen and none after
        assertEquals(
                "p".repeat(50 * 57 / 72) + "-" + "c".repeat(20 * 57 / 72), ResourceClaimStandIn.namePrefix(pod, claim));
    }

    @Test
    void discoveryServesTheResourceGroup() {
        List<String> served = client.getApiResources("resource.k8s.io/v1").getResources().stream()
                .map(APIResource::getName)
                .sorted()
                .toList();
        assertEquals(
                List.of(
                        "deviceclasses",
                        "resourceclaims",
                        "resourceclaims/status",
                        "resourceclaimtemplates",
                        "resourceslices"),
                served);
        assertTrue(client.getApiGroup("resource.k8s.io") != null);
    }
}
