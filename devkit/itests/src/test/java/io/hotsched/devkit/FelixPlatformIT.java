package io.hotsched.devkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import io.hotsched.testkit.FelixPlatform;
import io.hotsched.testkit.Placement;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The test kit's in-process platform: the packaged distribution's bundles in Felix with a plugin
 * bundle built against the API only (itests/plugins), and pods placed by that bundle's plugins
 * alone.
 */
class FelixPlatformIT {

    private static final String CONFIG = """
            apiVersion: kubescheduler.config.k8s.io/v1
            kind: KubeSchedulerConfiguration
            profiles:
            - schedulerName: itest
              plugins:
                multiPoint:
                  enabled:
                  - name: ItestSort
                  - name: ItestFit
                  - name: ItestBinder
                  disabled:
                  - name: "*"
            """;

    @Test
    void theInstalledBundlePlacesThePods() throws Exception {
        Path dist = Path.of(System.getProperty("hotsched.dist"));
        Path plugin = Path.of(System.getProperty("hotsched.itest.plugins.bundle"));
        try (FelixPlatform platform = FelixPlatform.boot(dist, CONFIG, plugin)) {
            platform.nodes(
                    Nodes.node("n1").cpu("2").build(), Nodes.node("n2").cpu("4").build());
            Placement placed = platform.schedule(
                    Pods.pod("a").scheduler("itest").cpu("1").build(),
                    Pods.pod("b").scheduler("itest").cpu("16").build());
            // ItestFit scores the emptiest node highest, and refuses a node without the cpu
            assertEquals("n2", placed.nodeOf("a"), placed + platform.bundles());
            assertTrue(placed.reasonOf("b").contains("Insufficient cpu"), placed.toString());
            assertTrue(platform.bundles().contains("io.hotsched.itest.plugins"), platform.bundles());
        }
    }
}
