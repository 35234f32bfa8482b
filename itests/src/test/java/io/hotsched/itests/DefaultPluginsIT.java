package io.hotsched.itests;

import static org.junit.Assert.assertEquals;

import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;

/**
 * The shipped default plugin bundle in Felix, with the default profile (no plugins section): it
 * schedules and preempts with the real plugins; deleting it from deploy/ pauses the profile and
 * putting it back resumes it.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class DefaultPluginsIT extends InMemoryClusterSupport {

    static final String CONFIG = defaultProfile("");

    @Override
    protected String schedulerYaml() {
        return CONFIG;
    }

    private static byte[] defaultPluginsJar() throws IOException {
        return shipped("io.hotsched.plugins.defaults-");
    }

    @Test
    public void theDefaultProfileRunsOnTheShippedBundleAndPausesWithoutIt() throws Exception {
        newCluster();
        cluster.addNode(Nodes.node("n1").cpu("2").build());
        cluster.addNode(Nodes.node("tainted")
                .cpu("64")
                .taint("dedicated", "infra", "NoSchedule")
                .build());
        connect();
        dropDynamicResources();
        await("paused without the default plugins", () -> profileState().startsWith("paused: waiting for plugin"));

        Path jar = drop("io.hotsched.plugins.defaults.jar", defaultPluginsJar());
        cluster.addPod(Pods.pod("low").priority(0).cpu("1500m").build());
        // TaintToleration keeps it off the big node; NodeResourcesFit puts it on n1
        await("low bound to n1", () -> "n1".equals(nodeOf("low")));

        // DefaultPreemption: the higher-priority pod takes n1, the lower one is deleted
        cluster.addPod(Pods.pod("high").priority(1000).cpu("1500m").build());
        await(
                "high bound to n1 in place of low",
                () -> "n1".equals(nodeOf("high")) && cluster.pod("default", "low") == null);

        Files.delete(jar);
        await("paused once the bundle left", () -> profileState().startsWith("paused: waiting for plugin"));
        cluster.addPod(Pods.pod("later")
                .cpu("100m")
                .tolerate("dedicated", "Equal", "infra", "NoSchedule")
                .build());
        awaitParked("default/later", "default-scheduler");
        assertEquals("a paused profile binds nothing", null, nodeOf("later"));

        drop("io.hotsched.plugins.defaults.jar", defaultPluginsJar());
        await("later bound once the bundle is back", () -> nodeOf("later") != null);
        assertEquals("ready", profileState());
        assertEquals(
                List.of("low", "high", "later"),
                cluster.bindings().stream()
                        .map(b -> b.podKey().substring("default/".length()))
                        .toList());
    }
}
