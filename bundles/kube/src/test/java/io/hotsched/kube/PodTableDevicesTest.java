package io.hotsched.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hotsched.testing.Pods;
import org.junit.jupiter.api.Test;

class PodTableDevicesTest {

    @Test
    void theRunReportNamesTheDevicesAPodWasGiven() {
        String annotation =
                "{\"gpu\":[{\"minor\":0,\"resources\":{}},{\"minor\":1,\"resources\":{}}],\"rdma\":[{\"minor\":2,\"resources\":null}]}";
        assertEquals(
                ", devices gpu 0+1, rdma 2",
                PodTable.devices(Pods.pod("p")
                        .annotation(PodTable.DEVICE_ALLOCATED, annotation)
                        .build()));
        assertEquals(
                ", devices unreadable",
                PodTable.devices(
                        Pods.pod("p").annotation(PodTable.DEVICE_ALLOCATED, "{").build()));
        assertEquals("", PodTable.devices(Pods.pod("p").build()));
    }
}
