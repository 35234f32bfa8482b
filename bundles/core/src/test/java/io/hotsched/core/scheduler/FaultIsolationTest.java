package io.hotsched.core.scheduler;

import static io.hotsched.core.support.SchedulerFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.FilterPlugin;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.ScorePlugin;
import io.hotsched.api.framework.Status;
import io.hotsched.core.registry.Registration;
import io.hotsched.core.support.SchedulerFixture;
import io.hotsched.core.support.TestPlugins;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FaultIsolationTest {

    private final SchedulerFixture f = new SchedulerFixture().withBasePlugins();

    @AfterEach
    void close() {
        f.close();
    }

    private static String with(String plugin) {
        return SchedulerFixture.BASE.replace("      - name: DefaultBinder\n", "      - name: DefaultBinder\n      - name: " + plugin + "\n");
    }

    /** Throws for pods labelled "boom" while {@code broken} is set. */
    static final class Flaky implements FilterPlugin {
        final AtomicBoolean broken = new AtomicBoolean(true);

        @Override
        public String name() {
            return "Flaky";
        }

        @Override
        public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
            if (broken.get()) {
                throw new IllegalStateException("flaky broke");
            }
            return Status.SUCCESS;
        }
    }

    @Test
    void aThrowingPluginFailsTheAttemptIsQuarantinedAndCanBeReleased() throws Exception {
        Flaky flaky = new Flaky();
        Registration r = f.add("Flaky", TestPlugins.factory(h -> flaky), "1.0.0");
        f.cluster.addNode(Nodes.node("n1").cpu("4").build());
        f.cluster.addPod(Pods.pod("p").cpu("100m").build());
        f.start(with("Flaky"));

        await("error recorded", () -> {
            Explanation e = f.scheduler.explain("default/p");
            return e != null && "error".equals(e.outcome());
        });
        assertTrue(f.scheduler.explain("default/p").message().contains("running \"Flaky\" filter plugin: flaky broke"),
                f.scheduler.explain("default/p").message());
        await("quarantined after 3 failed attempts", () -> f.health.quarantined(r));
        await("profile paused", () -> f.scheduler.profiles().profile("default-scheduler").describe()
                .equals("paused: waiting for plugin(s) Flaky"));
        assertEquals(3, f.health.counters(r).failures());
        assertTrue(f.cluster.bindings().isEmpty());

        flaky.broken.set(false);
        assertTrue(f.scheduler.release("Flaky"));
        await("bound after release", () -> f.cluster.bindings().size() == 1);
    }

    static final class OutOfRange implements ScorePlugin {
        @Override
        public String name() {
            return "OutOfRange";
        }

        @Override
        public long score(CycleState state, PodInfo pod, NodeInfo node) {
            return 500;
        }
    }

    @Test
    void anOutOfRangeScoreFailsTheAttemptWithUpstreamsMessage() throws Exception {
        f.add("OutOfRange", TestPlugins.factory(h -> new OutOfRange()), "1.0.0");
        f.cluster.addNode(Nodes.node("n1").cpu("4").build());
        f.cluster.addNode(Nodes.node("n2").cpu("4").build());
        f.cluster.addPod(Pods.pod("p").cpu("100m").build());
        f.start(with("OutOfRange"));
        await("error recorded", () -> {
            Explanation e = f.scheduler.explain("default/p");
            return e != null && "error".equals(e.outcome());
        });
        assertEquals("applying score defaultWeights on Score plugins: plugin \"OutOfRange\" returns an invalid score 500, "
                + "it should in the range of [0, 100] after normalizing", f.scheduler.explain("default/p").message());
    }

    /** Sleeps in Filter. */
    static final class Sleepy implements FilterPlugin {
        @Override
        public String name() {
            return "Sleepy";
        }

        @Override
        public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Status.SUCCESS;
        }
    }

    @Test
    void aCallPastItsTimeOutFailsTheAttemptAndCounts() throws Exception {
        Registration r = f.add("Sleepy", TestPlugins.factory(h -> new Sleepy()), "1.0.0");
        f.scheduler.timeouts().set(io.hotsched.core.runtime.PluginTimeouts.FILTER, 100);
        f.cluster.addNode(Nodes.node("n1").cpu("4").build());
        f.cluster.addPod(Pods.pod("p").cpu("100m").build());
        f.start(with("Sleepy"));
        await("error recorded", () -> {
            Explanation e = f.scheduler.explain("default/p");
            return e != null && "error".equals(e.outcome());
        });
        String msg = f.scheduler.explain("default/p").message();
        assertTrue(msg.startsWith("running \"Sleepy\" filter plugin: took ") && msg.endsWith("ms, over the 100ms time-out for Filter"), msg);
        await("counted against the plugin", () -> f.health.counters(r).failures() >= 1);
        assertTrue(f.cluster.bindings().isEmpty());
    }

    @Test
    void otherProfilesKeepSchedulingWhileOneIsPaused() throws Exception {
        Flaky flaky = new Flaky();
        f.add("Flaky", TestPlugins.factory(h -> flaky), "1.0.0");
        String twoProfiles = with("Flaky") + """
                - schedulerName: plain
                  plugins:
                    multiPoint:
                      enabled:
                      - name: PrioritySort
                      - name: NodeResourcesFit
                      - name: DefaultBinder
                      disabled:
                      - name: "*"
                """;
        f.cluster.addNode(Nodes.node("n1").cpu("4").build());
        f.cluster.addPod(Pods.pod("flaky-pod").cpu("100m").build());
        f.start(twoProfiles);
        await("quarantined", () -> f.scheduler.profiles().profile("default-scheduler").describe().startsWith("paused"));
        f.cluster.addPod(Pods.pod("plain-pod").scheduler("plain").cpu("100m").build());
        await("the other profile binds", () -> f.cluster.bindings().size() == 1);
        assertEquals("default/plain-pod", f.cluster.bindings().get(0).podKey());
    }
}
