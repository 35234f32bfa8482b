package io.hotsched.api.framework;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeInfoTest {

    static Node node(String name, String cpu, String memory) {
        return new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewStatus()
                .withAllocatable(
                        Map.of("cpu", new Quantity(cpu), "memory", new Quantity(memory), "pods", new Quantity("110")))
                .endStatus()
                .build();
    }

    static Pod pod(String name, String cpu, int hostPort) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("default")
                .withUid(name)
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("c")
                .withNewResources()
                .withRequests(Map.of("cpu", new Quantity(cpu)))
                .endResources()
                .withPorts(
                        hostPort > 0
                                ? List.of(new ContainerPortBuilder()
                                        .withContainerPort(8080)
                                        .withHostPort(hostPort)
                                        .build())
                                : List.of())
                .endContainer()
                .endSpec()
                .build();
    }

    @Test
    void addAndRemoveKeepSums() {
        NodeInfo n = new NodeInfo(node("n1", "4", "8Gi"));
        assertEquals(4000, n.allocatable().milliCpu());
        assertEquals(110, n.allocatable().allowedPods());
        PodInfo a = PodInfo.of(pod("a", "1", 80));
        PodInfo b = PodInfo.of(pod("b", "500m", 0));
        n.addPod(a);
        n.addPod(b);
        assertEquals(1500, n.requested().milliCpu());
        assertEquals(2 * 200L * 1024 * 1024, n.nonZeroRequested().memory());
        assertTrue(n.hostPortConflicts(new HostPort(null, null, 80)));
        assertTrue(n.removePod("a"));
        assertFalse(n.removePod("a"));
        assertEquals(500, n.requested().milliCpu());
        assertFalse(n.hostPortConflicts(new HostPort(null, null, 80)));
    }

    @Test
    void copyIsIndependent() {
        NodeInfo n = new NodeInfo(node("n1", "4", "8Gi"));
        n.addPod(PodInfo.of(pod("a", "1", 0)));
        NodeInfo c = n.copy();
        c.removePod("a");
        assertEquals(1, n.pods().size());
        assertEquals(1000, n.requested().milliCpu());
        assertEquals(0, c.requested().milliCpu());
    }

    @Test
    void labelsAreReadOnceInternedAndFollowTheNode() {
        // strings built at run time, as JSON decoding builds them: equal, not identical
        String zone = new String("topology.kubernetes.io/zone".toCharArray());
        NodeInfo n = new NodeInfo(new NodeBuilder()
                .withNewMetadata()
                .withName("n1")
                .withLabels(Map.of(zone, new String("z1".toCharArray())))
                .endMetadata()
                .build());
        assertEquals(Map.of("topology.kubernetes.io/zone", "z1"), n.labels());
        String key = n.labels().keySet().iterator().next();
        assertTrue(key == "topology.kubernetes.io/zone", "the key is the interned instance");
        assertTrue(n.labels().get("topology.kubernetes.io/zone") == "z1", "the value is the interned instance");
        LabelSelector sel = LabelSelector.of(new LabelSelectorBuilder()
                .addToMatchLabels(
                        new String("topology.kubernetes.io/zone".toCharArray()), new String("z1".toCharArray()))
                .build());
        assertTrue(sel.matches(n.labels()));
        assertTrue(sel.requirements().get(0).key() == key, "the selector's key is the same instance");
        assertEquals(n.labels(), n.copy().labels());
        n.setNode(
                new NodeBuilder().withNewMetadata().withName("n1").endMetadata().build());
        assertEquals(Map.of(), n.labels());
        n.setNode(new NodeBuilder()
                .withNewMetadata()
                .withName("n1")
                .withLabels(Map.of("a", "b"))
                .endMetadata()
                .build());
        n.clearNode();
        assertEquals(Map.of(), n.labels());
    }

    @Test
    void aSelectorRequirementWithoutAKeyFindsNoLabel() {
        LabelSelector exists = LabelSelector.of(new LabelSelectorBuilder()
                .addNewMatchExpression()
                .withOperator("Exists")
                .endMatchExpression()
                .build());
        LabelSelector absent = LabelSelector.of(new LabelSelectorBuilder()
                .addNewMatchExpression()
                .withOperator("DoesNotExist")
                .endMatchExpression()
                .build());
        NodeInfo n = new NodeInfo(new NodeBuilder()
                .withNewMetadata()
                .withName("n1")
                .withLabels(Map.of("a", "b"))
                .endMetadata()
                .build());
        assertFalse(exists.matches(n.labels()));
        assertTrue(absent.matches(n.labels()));
    }

    private static Pod withClaims(String name, String... claims) {
        PodBuilder b = new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("ns")
                .withUid(name)
                .endMetadata()
                .withNewSpec()
                .endSpec();
        for (String c : claims) {
            b.editSpec()
                    .addNewVolume()
                    .withName("v-" + c)
                    .withNewPersistentVolumeClaim()
                    .withClaimName(c)
                    .endPersistentVolumeClaim()
                    .endVolume()
                    .endSpec();
        }
        return b.build();
    }

    @Test
    void claimsOfThePodsAreCountedByNamespaceAndName() {
        NodeInfo n = new NodeInfo(
                new NodeBuilder().withNewMetadata().withName("n").endMetadata().build());
        Pod ephemeral = new PodBuilder(withClaims("web"))
                .editSpec()
                .addNewVolume()
                .withName("scratch")
                .withNewEphemeral()
                .endEphemeral()
                .endVolume()
                .endSpec()
                .build();
        assertEquals(List.of("web-scratch"), PodInfo.of(ephemeral).claimNames());
        n.addPod(PodInfo.of(withClaims("a", "data", "logs")));
        n.addPod(PodInfo.of(withClaims("b", "data")));
        n.addPod(PodInfo.of(ephemeral));
        assertEquals(Map.of("ns/data", 2, "ns/logs", 1, "ns/web-scratch", 1), n.pvcRefCounts());
        NodeInfo before = n.copy();
        n.removePod("a");
        n.removePod("web");
        assertEquals(Map.of("ns/data", 1), n.pvcRefCounts());
        assertEquals(Map.of("ns/data", 2, "ns/logs", 1, "ns/web-scratch", 1), before.pvcRefCounts());
        n.removePod("b");
        assertTrue(n.pvcRefCounts().isEmpty());
    }
}
