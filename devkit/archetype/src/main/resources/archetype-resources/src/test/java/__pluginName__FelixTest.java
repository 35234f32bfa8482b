package ${package};

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import io.hotsched.testkit.FelixPlatform;
import io.hotsched.testkit.Placement;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The bundle as hotsched runs it: the packaged jar installed into a real hotsched platform (the
 * distribution's bundles in Felix, in this JVM), enabled by the profile of scheduler.yaml, placing
 * pods on an in-memory cluster. Runs in {@code mvn verify}, after {@code package} wrote the jar;
 * the pom unpacks the distribution and names both in system properties.
 */
class ${pluginName}FelixTest {

    @Test
    void theBundleServesTheProfileOfSchedulerYaml() throws Exception {
        Path distribution = Path.of(System.getProperty("hotsched.distribution"));
        Path bundle = Path.of(System.getProperty("plugin.bundle"));
        String config = """
                apiVersion: kubescheduler.config.k8s.io/v1
                kind: KubeSchedulerConfiguration
                profiles:
                """ + Files.readString(Path.of("scheduler.yaml"));
        try (FelixPlatform platform = FelixPlatform.boot(distribution, config, bundle)) {
            platform.nodes(Nodes.node("small").cpu("2").build(), Nodes.node("big").cpu("8").build());
            Placement placed = platform.schedule(
                    Pods.pod("web").scheduler("${artifactId}").cpu("500m").build(),
                    Pods.pod("huge").scheduler("${artifactId}").cpu("7800m").build());
            // pack (weight 5) outweighs the default plugins, which would spread web to big
            assertEquals("small", placed.nodeOf("web"), placed + platform.bundles());
            assertNull(placed.nodeOf("huge"), placed.toString());
            assertTrue(placed.reasonOf("huge").contains("node would keep less than 500m cpu free"), placed.toString());
        }
    }
}
