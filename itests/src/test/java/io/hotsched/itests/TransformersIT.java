package io.hotsched.itests;

import static org.junit.Assert.assertEquals;

import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;

/**
 * The shipped ResourceAmplification transformer in Felix: enabled in a profile it makes a node big
 * enough for a pod; its bundle leaving pauses the profile; taken out of the profile (config
 * reload) the same pod no longer fits; enabled again with the bundle back, it is placed.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class TransformersIT extends InMemoryClusterSupport {

    static final String WITH = defaultProfile("""
            filter:
              enabled: [{name: ResourceAmplification}]
            score:
              enabled: [{name: ResourceAmplification}]
            """);
    static final String WITHOUT = defaultProfile("");

    @Override
    protected String schedulerYaml() {
        return WITH;
    }

    private String condition(String pod) {
        return Pods.scheduledMessage(cluster.pod("default", pod));
    }

    @Test
    public void theTransformerDecidesWhileEnabledAndNotOnceRemoved() throws Exception {
        newCluster();
        // 4 cpus, amplified 2.5 times: 10 as ResourceAmplification shows it
        cluster.addNode(Nodes.node("n1")
                .cpu("4")
                .memory("16Gi")
                .annotation("node.koordinator.sh/resource-amplification-ratio", "{\"cpu\": 2.5}")
                .build());
        connect();
        dropDefaultPlugins();
        Path jar = drop("io.hotsched.transformer.amplification.jar", shipped("io.hotsched.transformer.amplification-"));
        cluster.addPod(Pods.pod("seven").cpu("7").build());
        await("seven bound on the amplified node", () -> "n1".equals(nodeOf("seven")));

        Files.delete(jar);
        await(
                "paused once the transformer left",
                () -> profileState().equals("paused: waiting for plugin(s) ResourceAmplification"));
        cluster.addPod(Pods.pod("two").cpu("2").build());
        awaitParked("default/two", "default-scheduler");
        assertEquals("a paused profile binds nothing", null, nodeOf("two"));

        // out of the profile: the node has 4 real cpus and seven holds 7, so two does not fit
        writeSchedulerYaml(WITHOUT);
        await(
                "two refused on the real allocatable",
                () -> condition("two").startsWith("0/1 nodes are available: 1 Insufficient cpu."));
        assertEquals("ready", profileState());

        writeSchedulerYaml(WITH);
        await(
                "paused again: enabled but not installed",
                () -> profileState().equals("paused: waiting for plugin(s) ResourceAmplification"));
        drop("io.hotsched.transformer.amplification.jar", shipped("io.hotsched.transformer.amplification-"));
        await("two bound once the transformer is back", () -> "n1".equals(nodeOf("two")));
    }
}
