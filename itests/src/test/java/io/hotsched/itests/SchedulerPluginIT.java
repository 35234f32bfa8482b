package io.hotsched.itests;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.hotsched.core.admin.PluginView;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;

/**
 * The real core and shell bundles in Felix pick up a plugin bundle dropped into deploy/ while
 * they run, schedule with it, and pause the profile when it is deleted.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class SchedulerPluginIT extends InMemoryClusterSupport {

    static final String CONFIG = defaultProfile("""
            multiPoint:
              enabled:
              - name: ItestSort
              - name: ItestFit
              - name: ItestBinder
              disabled:
              - name: "*"
            """);

    @Override
    protected String schedulerYaml() {
        return CONFIG;
    }

    private boolean bound(String name) {
        var p = cluster.pod("default", name);
        return p != null && p.getSpec().getNodeName() != null;
    }

    @Test
    public void aPluginBundleDroppedIntoDeployIsPickedUpAndDropped() throws Exception {
        newCluster();
        cluster.addNode(Nodes.node("n1").cpu("4").build());
        cluster.addPod(Pods.pod("first").cpu("100m").build());
        connect();

        await(
                "profile paused without its plugins",
                () -> sh("sched:profiles").contains("paused: waiting for plugin(s) ItestSort, ItestFit, ItestBinder"));
        awaitParked("default/first", "default-scheduler");
        assertTrue("nothing bound while paused", !bound("first"));

        Path jar = drop(
                "itest-plugins.jar", Files.readAllBytes(Path.of(System.getProperty("hotsched.itest.plugins.bundle"))));
        await("first bound once the plugins arrived", () -> bound("first"));
        List<PluginView> plugins = admin.plugins();
        assertTrue(
                plugins.toString(),
                plugins.stream()
                        .allMatch(p -> p.state().equals("active") && p.bundle().equals("io.hotsched.itest.plugins")));
        // the profile runs the three it names; the bundle's other test plugins are registered but unused
        assertEquals(
                List.of("ItestBinder", "ItestFit", "ItestSort"),
                plugins.stream()
                        .filter(p -> p.profiles().equals(List.of("default-scheduler")))
                        .map(PluginView::name)
                        .sorted()
                        .toList());
        String table = sh("sched:plugins");
        assertTrue(
                table,
                table.contains("ItestFit")
                        && table.contains("Filter,Score")
                        && table.contains("io.hotsched.itest.plugins"));
        assertTrue(sh("sched:explain first"), sh("sched:explain first").contains("bound to n1"));

        Files.delete(jar);
        await(
                "profile paused once the bundle left",
                () -> sh("sched:profiles").contains("paused: waiting for plugin(s)"));
        cluster.addPod(Pods.pod("second").cpu("100m").build());
        awaitParked("default/second", "default-scheduler");
        assertTrue("a paused profile binds nothing", !bound("second"));
        assertTrue(sh("sched:queue"), sh("sched:queue").contains("default/second"));

        drop("itest-plugins.jar", Files.readAllBytes(Path.of(System.getProperty("hotsched.itest.plugins.bundle"))));
        await("second bound once the plugins are back", () -> bound("second"));
        assertEquals(2, cluster.bindings().size());
    }
}
