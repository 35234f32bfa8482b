package io.hotsched.core.scheduler;

import static io.hotsched.core.support.SchedulerFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.InvalidArgsException;
import io.hotsched.api.framework.Status;
import io.hotsched.core.config.ConfigException;
import io.hotsched.core.config.ConfigParser;
import io.hotsched.core.support.SchedulerFixture;
import io.hotsched.core.support.TestPlugins;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.OnePoint;
import io.hotsched.testing.Pods;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ConfigReloadTest {

    /** Args of the Prefer plugin: which node to prefer. */
    public static final class PreferArgs {
        public String node = "n1";
    }

    private final SchedulerFixture f = new SchedulerFixture().withBasePlugins();

    @AfterEach
    void close() {
        f.close();
    }

    private static String config(String node) {
        return SchedulerFixture.withPlugins("Prefer\n        weight: 10")
                + "  pluginConfig:\n  - name: Prefer\n    args:\n      node: " + node + "\n";
    }

    @Test
    void goodReloadsApplyAndBadOnesChangeNothing() throws Exception {
        f.add(
                "Prefer",
                (args, handle) -> {
                    PreferArgs a = args.as(PreferArgs.class);
                    if (!a.node.startsWith("n")) {
                        throw new InvalidArgsException("node", a.node, "must name a node (n1, n2)");
                    }
                    return TestPlugins.prefer(a.node);
                },
                "1.0.0");
        f.cluster.addNode(Nodes.node("n1").cpu("64").build());
        f.cluster.addNode(Nodes.node("n2").cpu("64").build());
        f.start(config("n1"));
        f.cluster.addPod(Pods.pod("a").cpu("100m").build());
        await("a", () -> f.cluster.bindings().size() == 1);
        assertEquals("n1", f.cluster.bindings().get(0).nodeName());

        f.scheduler.reload(ConfigParser.parse(config("n2"), "scheduler.yaml"));
        f.cluster.addPod(Pods.pod("b").cpu("100m").build());
        await("b", () -> f.cluster.bindings().size() == 2);
        assertEquals("n2", f.cluster.bindings().get(1).nodeName());

        ConfigException bad = assertThrows(
                ConfigException.class, () -> f.scheduler.reload(ConfigParser.parse(config("x9"), "scheduler.yaml")));
        assertEquals(
                "scheduler.yaml:19: profiles[0].pluginConfig[0].args.node: plugin Prefer: invalid value \"x9\": must name a node (n1, n2)",
                bad.getMessage());
        ConfigException unknown = assertThrows(
                ConfigException.class,
                () -> f.scheduler.reload(
                        ConfigParser.parse(config("n1").replace("node: n1", "nodes: n1"), "scheduler.yaml")));
        assertTrue(
                unknown.getMessage().contains("args.nodes: plugin Prefer: unknown field \"nodes\""),
                unknown.getMessage());

        f.cluster.addPod(Pods.pod("c").cpu("100m").build());
        await("c", () -> f.cluster.bindings().size() == 3);
        assertEquals("n2", f.cluster.bindings().get(2).nodeName(), "the last good configuration still runs");
    }

    /** "OnlyNode": lets only {@code node} through. */
    private static FilterPlugin onlyNode(String node) {
        return new OnePoint.Filter(
                "OnlyNode",
                (state, pod, n) -> n.name().equals(node) ? Status.SUCCESS : Status.unschedulable("not " + node));
    }

    @Test
    void podsRefusedByTheOldConfigurationAreTriedAgainUnderTheNewOne() throws Exception {
        f.add("OnlyNode", (args, handle) -> onlyNode(args.as(PreferArgs.class).node), "1.0.0");
        f.cluster.addNode(Nodes.node("n1").cpu("64").build());
        String only = SchedulerFixture.withPlugins("OnlyNode")
                + "  pluginConfig:\n  - name: OnlyNode\n    args:\n      node: ";
        f.start(only + "n9\n");
        f.cluster.addPod(Pods.pod("a").cpu("100m").build());
        await("a refused", () -> f.cluster.pod("default", "a").getStatus() != null);
        assertEquals(0, f.cluster.bindings().size());

        // no cluster event follows: the new framework alone must retry what the old one refused
        f.scheduler.reload(ConfigParser.parse(only + "n1\n", "scheduler.yaml"));
        await("a bound under the new configuration", () -> f.cluster.bindings().size() == 1);
        assertEquals("n1", f.cluster.bindings().get(0).nodeName());
    }

    @Test
    void frameworkChecksNameTheProfile() throws Exception {
        String noBinder = SchedulerFixture.BASE.replace("      - name: DefaultBinder\n", "");
        ConfigException e = assertThrows(ConfigException.class, () -> f.start(noBinder));
        assertEquals(
                "scheduler.yaml: profiles[0].plugins.bind: at least one bind plugin is needed for profile with scheduler name \"default-scheduler\"",
                e.getMessage());
        String noSort = SchedulerFixture.BASE.replace("      - name: PrioritySort\n", "");
        e = assertThrows(ConfigException.class, () -> f.start(noSort));
        assertEquals(
                "scheduler.yaml: profiles[0].plugins.queueSort: only one queue sort plugin required for profile with scheduler name "
                        + "\"default-scheduler\", but got 0",
                e.getMessage());
        String wrongPoint = SchedulerFixture.BASE + "    filter:\n      enabled:\n      - name: DefaultBinder\n";
        e = assertThrows(ConfigException.class, () -> f.start(wrongPoint));
        assertTrue(
                e.getMessage().contains("plugin \"DefaultBinder\" does not extend FilterPlugin plugin"),
                e.getMessage());
    }
}
