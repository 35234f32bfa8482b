package io.hotsched.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.hotsched.core.config.ConfigParser;
import io.hotsched.core.registry.PluginHealth;
import io.hotsched.core.registry.PluginRegistry;
import io.hotsched.core.registry.Registration;
import io.hotsched.core.scheduler.Scheduler;
import io.hotsched.core.scheduler.SchedulerOptions;
import io.hotsched.embedded.EmbeddedApiServer;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import io.hotsched.testing.SimplePlugins;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.osgi.framework.Version;

/**
 * The scheduler over HTTP against the embedded API server: informers in, bindings, conditions and
 * events out, counted from the API server's side by a watcher that records every binding.
 */
class KubePathTest {

    private static final String CONFIG = """
            apiVersion: kubescheduler.config.k8s.io/v1
            kind: KubeSchedulerConfiguration
            profiles:
            - schedulerName: default-scheduler
              plugins:
                multiPoint:
                  enabled:
                  - name: PrioritySort
                  - name: NodeResourcesFit
                  - name: DefaultBinder
                  - name: HoldPreBind
                  disabled:
                  - name: "*"
            """;

    /** Holds pods named "held-*" in PreBind until released. */
    static final class HoldPreBind implements io.hotsched.api.framework.PreBindPlugin {
        final java.util.concurrent.CountDownLatch entered = new java.util.concurrent.CountDownLatch(1);
        final java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);

        @Override
        public String name() {
            return "HoldPreBind";
        }

        @Override
        public io.hotsched.api.framework.Status preBind(
                io.hotsched.api.framework.CycleState s, io.hotsched.api.framework.PodInfo pod, String node) {
            if (pod.name().startsWith("held-")) {
                entered.countDown();
                try {
                    release.await(20, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return io.hotsched.api.framework.Status.SUCCESS;
        }
    }

    private final HoldPreBind hold = new HoldPreBind();
    private EmbeddedApiServer server;
    private KubernetesClient client;
    private Scheduler scheduler;
    private KubeConnection connection;
    private Watch bindingsWatch;
    private final Map<String, AtomicLong> bindingsSeen = new ConcurrentHashMap<>();

    @BeforeEach
    void start() throws Exception {
        server = new EmbeddedApiServer().start(0);
        client = server.client();
        client.nodes().resource(Nodes.node("n1").cpu("2").build()).create();
        client.nodes().resource(Nodes.node("n2").cpu("2").build()).create();
        bindingsWatch = client.pods().inAnyNamespace().watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, Pod pod) {
                if (action == Action.MODIFIED && pod.getSpec().getNodeName() != null) {
                    bindingsSeen.computeIfAbsent(pod.getMetadata().getName(), k -> new AtomicLong());
                }
            }

            @Override
            public void onClose(WatcherException e) {}
        });
        PluginHealth health = new PluginHealth(5);
        PluginRegistry registry = new PluginRegistry(health);
        scheduler = new Scheduler(
                new SchedulerOptions(4, Duration.ofSeconds(30), Duration.ofSeconds(5), 5, 100),
                registry,
                health,
                Clock.systemUTC());
        scheduler.pluginAdded(
                new Registration("PrioritySort", (a, h) -> new SimplePlugins.Sort(), "test", Version.emptyVersion, 1));
        scheduler.pluginAdded(new Registration(
                "NodeResourcesFit", (a, h) -> new SimplePlugins.CpuFit(), "test", Version.emptyVersion, 2));
        scheduler.pluginAdded(new Registration(
                "DefaultBinder", (a, h) -> new SimplePlugins.Binder(h), "test", Version.emptyVersion, 3));
        scheduler.pluginAdded(new Registration("HoldPreBind", (a, h) -> hold, "test", Version.emptyVersion, 4));
        KubernetesClient schedulerClient = ClientFactory.create(server.url(), null, 16);
        scheduler.setBackend(new KubeBackend(schedulerClient, "hotsched"));
        scheduler.start(ConfigParser.parse(CONFIG, "scheduler.yaml"));
        connection = new KubeConnection(schedulerClient, scheduler.events());
        connection.start();
        assertTrue(connection.awaitSynced(20, TimeUnit.SECONDS));
    }

    @AfterEach
    void stop() {
        bindingsWatch.close();
        connection.close();
        scheduler.close();
        server.close();
    }

    private static void await(String what, BooleanSupplier c) throws InterruptedException {
        Await.until(what, 20, c);
    }

    private Pod get(String name) {
        return client.pods().inNamespace("default").withName(name).get();
    }

    @Test
    void ourPodsAreBoundAndSeenBoundOthersUntouched() throws Exception {
        for (int i = 0; i < 10; i++) {
            client.pods().resource(Pods.pod("p" + i).cpu("100m").build()).create();
        }
        client.pods()
                .resource(
                        Pods.pod("theirs").scheduler("someone-else").cpu("100m").build())
                .create();
        await("10 bound, seen by a watcher", () -> bindingsSeen.size() == 10);
        for (int i = 0; i < 10; i++) {
            assertTrue(get("p" + i).getSpec().getNodeName() != null);
        }
        Thread.sleep(300);
        assertNull(get("theirs").getSpec().getNodeName());
        List<Event> scheduled = client.v1().events().inNamespace("default").list().getItems().stream()
                .filter(e -> "Scheduled".equals(e.getReason()))
                .toList();
        assertEquals(10, scheduled.size());
        assertTrue(scheduled.get(0).getMessage().startsWith("Successfully assigned default/p"));
    }

    @Test
    void anUnschedulablePodGetsTheConditionAndOneEventWithTheFitErrorText() throws Exception {
        client.pods().resource(Pods.pod("big").cpu("3").build()).create();
        String expected = "0/2 nodes are available: 2 Insufficient cpu.";
        await("condition", () -> {
            Pod p = get("big");
            return p.getStatus() != null
                    && p.getStatus().getConditions() != null
                    && p.getStatus().getConditions().stream()
                            .anyMatch(c -> "PodScheduled".equals(c.getType()) && expected.equals(c.getMessage()));
        });
        var c = get("big").getStatus().getConditions().stream()
                .filter(x -> "PodScheduled".equals(x.getType()))
                .findFirst()
                .orElseThrow();
        assertEquals("False", c.getStatus());
        assertEquals("Unschedulable", c.getReason());
        await(
                "event",
                () -> client.v1().events().inNamespace("default").list().getItems().stream()
                        .anyMatch(e -> "FailedScheduling".equals(e.getReason())));
        // a node event retries the pod: the repeat is aggregated into the same event
        client.nodes().resource(Nodes.node("n3").cpu("1").build()).create();
        Thread.sleep(1500);
        List<Event> failed = client.v1().events().inNamespace("default").list().getItems().stream()
                .filter(e -> "FailedScheduling".equals(e.getReason()))
                .toList();
        assertEquals(1, failed.size(), "one event, counted");
        assertEquals(
                "0/2 nodes are available: 2 Insufficient cpu.", failed.get(0).getMessage());
    }

    @Test
    void aBindAnsweredWithErrorsIsRetriedAndEndsBoundExactlyOnce() throws Exception {
        server.failNextBinds(2, 500);
        client.pods().resource(Pods.pod("retry").cpu("100m").build()).create();
        await("bound", () -> get("retry").getSpec().getNodeName() != null);
        Thread.sleep(500);
        assertEquals(1, bindingsSeen.size());
        assertEquals(
                100,
                scheduler
                        .cache()
                        .node(get("retry").getSpec().getNodeName())
                        .requested()
                        .milliCpu());
    }

    @Test
    void aConflictOnBindIsNotRetriedAndThePodIsNotCountedTwice() throws Exception {
        server.failNextBinds(1, 409);
        client.pods().resource(Pods.pod("conflict").cpu("100m").build()).create();
        await("bound on a later attempt", () -> get("conflict").getSpec().getNodeName() != null);
        Thread.sleep(300);
        String node = get("conflict").getSpec().getNodeName();
        assertEquals(100, scheduler.cache().node(node).requested().milliCpu());
    }

    @Test
    void aPodDeletedWhileBindingIsForgottenWithoutError() throws Exception {
        client.pods().resource(Pods.pod("held-1").cpu("500m").build()).create();
        assertTrue(hold.entered.await(20, TimeUnit.SECONDS));
        client.pods().inNamespace("default").withName("held-1").delete();
        await("deleted", () -> get("held-1") == null);
        hold.release.countDown();
        await(
                "forgotten",
                () -> scheduler.cache().podCount() == 0
                        && scheduler.queue().entries().isEmpty());
        assertEquals(0, scheduler.counters().get("errors"));
        assertEquals(
                0,
                scheduler.cache().node("n1").requested().milliCpu()
                        + scheduler.cache().node("n2").requested().milliCpu());
    }

    @Test
    void aPodDeletedWhileQueuedIsForgotten() throws Exception {
        client.pods().resource(Pods.pod("big").cpu("3").build()).create();
        await("unschedulable", () -> scheduler.queue().counts().get("unschedulable") == 1);
        client.pods().inNamespace("default").withName("big").delete();
        await("forgotten", () -> scheduler.queue().entries().isEmpty());
    }
}
