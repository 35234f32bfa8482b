package io.hotsched.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** What kube-apiserver defaults and admits on a new pod, over HTTP. */
class DefaultingTest {

    /** A server for each test: the priority classes one test creates would change what another sees. */
    @RegisterExtension
    final ApiServer api = new ApiServer();

    private static PodBuilder pod(String name) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("c")
                .withImage("registry.k8s.io/pause:3.10")
                .withNewResources()
                .withLimits(Map.of("cpu", new Quantity("500m")))
                .endResources()
                .endContainer()
                .endSpec();
    }

    private Pod create(Pod p) {
        return api.client().pods().inNamespace("default").resource(p).create();
    }

    @Test
    void aGatedPodIsToldWhyItWaitsAndAnUngatedOneIsNot() {
        Pod gated = create(pod("gated")
                .editSpec()
                .addNewSchedulingGate("example.com/hold")
                .endSpec()
                .build());
        var conditions = gated.getStatus().getConditions();
        assertEquals(1, conditions.size(), conditions.toString());
        assertEquals("PodScheduled", conditions.get(0).getType());
        assertEquals("False", conditions.get(0).getStatus());
        assertEquals("SchedulingGated", conditions.get(0).getReason());
        assertEquals(
                "Scheduling is blocked due to non-empty scheduling gates",
                conditions.get(0).getMessage());
        assertNotNull(conditions.get(0).getLastTransitionTime());
        assertTrue(create(pod("free").build()).getStatus().getConditions().isEmpty());
    }

    @Test
    void aBarePodGetsTheDefaultsSchedulingReads() {
        Pod p = create(pod("bare").build());
        assertEquals("default-scheduler", p.getSpec().getSchedulerName());
        assertEquals("Always", p.getSpec().getRestartPolicy());
        assertEquals("ClusterFirst", p.getSpec().getDnsPolicy());
        assertEquals(30L, p.getSpec().getTerminationGracePeriodSeconds());
        assertEquals(true, p.getSpec().getEnableServiceLinks());
        assertEquals(0, p.getSpec().getPriority());
        assertEquals("PreemptLowerPriority", p.getSpec().getPreemptionPolicy());
        assertEquals("Pending", p.getStatus().getPhase());
        var c = p.getSpec().getContainers().get(0);
        assertEquals("IfNotPresent", c.getImagePullPolicy());
        assertEquals("/dev/termination-log", c.getTerminationMessagePath());
        assertEquals(new Quantity("500m"), c.getResources().getRequests().get("cpu"), "requests default to limits");
        List<Toleration> t = p.getSpec().getTolerations();
        assertEquals(2, t.size());
        for (Toleration x : t) {
            assertEquals("NoExecute", x.getEffect());
            assertEquals("Exists", x.getOperator());
            assertEquals(300L, x.getTolerationSeconds());
        }
        assertNotNull(p.getMetadata().getUid());
        assertNotNull(p.getMetadata().getCreationTimestamp());
        assertNotNull(p.getMetadata().getResourceVersion());
        // the stored pod, not only the answer
        assertEquals(
                "default-scheduler",
                api.client()
                        .pods()
                        .inNamespace("default")
                        .withName("bare")
                        .get()
                        .getSpec()
                        .getSchedulerName());
    }

    @Test
    void whatThePodSaysIsKeptAndAToleratedTaintIsNotTwice() {
        Pod p = create(pod("own")
                .editSpec()
                .withSchedulerName("hotsched")
                .withTerminationGracePeriodSeconds(0L)
                .addNewToleration()
                .withKey("node.kubernetes.io/not-ready")
                .withOperator("Exists")
                .withEffect("NoExecute")
                .endToleration()
                .endSpec()
                .build());
        assertEquals("hotsched", p.getSpec().getSchedulerName());
        assertEquals(0L, p.getSpec().getTerminationGracePeriodSeconds());
        assertEquals(2, p.getSpec().getTolerations().size());
        assertEquals(null, p.getSpec().getTolerations().get(0).getTolerationSeconds(), "the pod's own is kept");
        assertEquals(
                "node.kubernetes.io/unreachable",
                p.getSpec().getTolerations().get(1).getKey());
    }

    @Test
    void anUnknownPriorityClassIsForbiddenWithThePluginsMessage() {
        KubernetesClientException e = assertThrows(
                KubernetesClientException.class,
                () -> create(pod("orphan")
                        .editSpec()
                        .withPriorityClassName("gold")
                        .endSpec()
                        .build()));
        assertEquals(403, e.getCode());
        assertEquals("Forbidden", e.getStatus().getReason());
        assertEquals(
                "pods \"orphan\" is forbidden: no PriorityClass with name gold was found",
                e.getStatus().getMessage());
    }

    @Test
    void priorityComesFromTheClassOrTheGlobalDefault() {
        api.client()
                .resource(new PriorityClassBuilder()
                        .withNewMetadata()
                        .withName("gold")
                        .endMetadata()
                        .withValue(1000)
                        .withPreemptionPolicy("Never")
                        .build())
                .create();
        Pod gold = create(
                pod("gold").editSpec().withPriorityClassName("gold").endSpec().build());
        assertEquals(1000, gold.getSpec().getPriority());
        assertEquals("Never", gold.getSpec().getPreemptionPolicy());
        assertEquals(
                2000001000,
                create(pod("critical")
                                .editSpec()
                                .withPriorityClassName("system-node-critical")
                                .endSpec()
                                .build())
                        .getSpec()
                        .getPriority());

        KubernetesClientException e = assertThrows(
                KubernetesClientException.class,
                () -> create(pod("liar")
                        .editSpec()
                        .withPriorityClassName("gold")
                        .withPriority(5)
                        .endSpec()
                        .build()));
        assertEquals(
                "pods \"liar\" is forbidden: the integer value of priority (5) must not be provided in pod spec;"
                        + " priority admission controller computed 1000 from the given PriorityClass name",
                e.getStatus().getMessage());

        api.client()
                .resource(new PriorityClassBuilder()
                        .withNewMetadata()
                        .withName("silver")
                        .endMetadata()
                        .withValue(100)
                        .withGlobalDefault(true)
                        .build())
                .create();
        Pod plain = create(pod("plain").build());
        assertEquals("silver", plain.getSpec().getPriorityClassName());
        assertEquals(100, plain.getSpec().getPriority());

        api.client().scheduling().v1().priorityClasses().withName("silver").delete();
        api.client()
                .scheduling()
                .v1()
                .priorityClasses()
                .withName("silver")
                .waitUntilCondition(pc -> pc == null, 5, java.util.concurrent.TimeUnit.SECONDS);
        assertEquals(0, create(pod("after").build()).getSpec().getPriority(), "no default class any more");
    }

    @Test
    void aStaleUpdateIsAConflictAndADuplicateCreateAlreadyExists() {
        Pod p = create(pod("v").build());
        Pod newer = api.client()
                .pods()
                .inNamespace("default")
                .withName("v")
                .edit(x -> new PodBuilder(x)
                        .editMetadata()
                        .addToLabels("a", "1")
                        .endMetadata()
                        .build());
        assertFalse(
                newer.getMetadata().getResourceVersion().equals(p.getMetadata().getResourceVersion()));
        p.getMetadata().setLabels(Map.of("b", "2"));
        KubernetesClientException stale = assertThrows(
                KubernetesClientException.class,
                () -> api.client().pods().inNamespace("default").resource(p).update());
        assertEquals(409, stale.getCode());
        assertEquals("Conflict", stale.getStatus().getReason());
        assertEquals(
                "Operation cannot be fulfilled on pods \"v\": the object has been modified; please apply your changes"
                        + " to the latest version and try again",
                stale.getStatus().getMessage());

        KubernetesClientException dup = assertThrows(KubernetesClientException.class, () -> create(pod("v").build()));
        assertEquals(409, dup.getCode());
        assertEquals("AlreadyExists", dup.getStatus().getReason());
        assertEquals("pods \"v\" already exists", dup.getStatus().getMessage());
    }

    @Test
    void aNamespaceIsActive() {
        var ns = api.client()
                .namespaces()
                .resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder()
                        .withNewMetadata()
                        .withName("fresh")
                        .endMetadata()
                        .build())
                .create();
        assertEquals("Active", ns.getStatus().getPhase());
        assertTrue(ns.getMetadata().getGeneration() >= 1);
    }
}
