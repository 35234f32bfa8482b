package io.hotsched.api.framework;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PodInfoTest {

    private static Container container(String cpu, String memory) {
        ContainerBuilder b = new ContainerBuilder().withName("c").withImage("i");
        Map<String, Quantity> req = new HashMap<>();
        if (cpu != null) {
            req.put("cpu", new Quantity(cpu));
        }
        if (memory != null) {
            req.put("memory", new Quantity(memory));
        }
        return b.withNewResources().withRequests(req).endResources().build();
    }

    private static Container sidecar(String cpu, String memory) {
        Container c = container(cpu, memory);
        c.setRestartPolicy("Always");
        return c;
    }

    private static Pod pod(List<Container> apps, List<Container> inits, Map<String, Quantity> overhead) {
        return new PodBuilder()
                .withNewMetadata()
                .withName("p")
                .withNamespace("ns")
                .withUid("u1")
                .endMetadata()
                .withNewSpec()
                .withContainers(apps)
                .withInitContainers(inits)
                .withOverhead(overhead)
                .endSpec()
                .build();
    }

    @Test
    void appContainersAreSummed() {
        PodInfo p = PodInfo.of(pod(List.of(container("100m", "1Gi"), container("250m", "512Mi")), List.of(), null));
        assertEquals(350, p.requests().milliCpu());
        assertEquals(1536L * 1024 * 1024, p.requests().memory());
        assertEquals("ns/p", p.key());
        assertEquals("u1", p.uid());
    }

    @Test
    void largestInitContainerWinsWhenLarger() {
        PodInfo p = PodInfo.of(pod(List.of(container("100m", "100Mi")), List.of(container("2", "50Mi")), null));
        assertEquals(2000, p.requests().milliCpu());
        assertEquals(100L * 1024 * 1024, p.requests().memory());
    }

    @Test
    void sidecarsAddToAppsAndToLaterInitContainers() {
        // sidecar 1 cpu, then an init container of 2 cpu that runs beside it: init peak 3; apps 1 + sidecar 1 = 2
        PodInfo p =
                PodInfo.of(pod(List.of(container("1", null)), List.of(sidecar("1", null), container("2", null)), null));
        assertEquals(3000, p.requests().milliCpu());
    }

    @Test
    void overheadIsAdded() {
        PodInfo p = PodInfo.of(pod(List.of(container("1", "1Gi")), List.of(), Map.of("cpu", new Quantity("250m"))));
        assertEquals(1250, p.requests().milliCpu());
    }

    @Test
    void nonZeroDefaultsOnlyForMissingRequests() {
        PodInfo missing = PodInfo.of(pod(List.of(container(null, null), container("0", null)), List.of(), null));
        assertEquals(0, missing.requests().milliCpu());
        assertEquals(100, missing.nonZeroRequests().milliCpu(), "100m for the first, explicit 0 stays 0");
        assertEquals(2 * 200L * 1024 * 1024, missing.nonZeroRequests().memory());
    }

    @Test
    void quantitiesRoundUp() {
        assertEquals(1, Resource.milliValue(new Quantity("0.0001")));
        assertEquals(2, Resource.value(new Quantity("1.5")));
        assertEquals(1000, Resource.value(new Quantity("1k")));
        assertEquals(1024, Resource.value(new Quantity("1Ki")));
    }

    @Test
    void extendedResourcesAreScalars() {
        Resource r = Resource.parse(
                Map.of("nvidia.com/gpu", new Quantity("2"), "pods", new Quantity("110"), "cpu", new Quantity("4")));
        assertEquals(2, r.get("nvidia.com/gpu"));
        assertEquals(110, r.allowedPods());
        assertEquals(4000, r.get("cpu"));
        assertEquals(Map.of("nvidia.com/gpu", 2L), r.scalars());
        assertTrue(r.minus(r).isZero());
    }

    @Test
    void hostPortsNormaliseAndConflict() {
        HostPort any = new HostPort("", "", 80);
        assertEquals(new HostPort("0.0.0.0", "TCP", 80), any);
        assertTrue(any.conflictsWith(new HostPort("10.0.0.1", "TCP", 80)));
        assertTrue(new HostPort("10.0.0.1", "TCP", 80).conflictsWith(new HostPort("10.0.0.1", null, 80)));
        assertTrue(!new HostPort("10.0.0.1", "TCP", 80).conflictsWith(new HostPort("10.0.0.2", "TCP", 80)));
        assertTrue(!any.conflictsWith(new HostPort("", "UDP", 80)));
    }

    @Test
    void aMalformedQuantityIsRefusedNamingTheResourceAndTheValue() {
        Pod p = pod(List.of(container("12xyz", "1Gi")), List.of(), null);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PodInfo.of(p));
        assertEquals(
                "cpu: Invalid value: \"12xyz\": quantities must match the regular expression"
                        + " '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
                e.getMessage());
    }
}
