package io.hotsched.kube;

import static io.hotsched.kube.ApiServerFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.api.framework.Status;
import io.hotsched.core.runtime.ShadowResult;
import io.hotsched.core.scheduler.ShadowFigures;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.OnePoint;
import io.hotsched.testing.Pods;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Observe-only mode over HTTP against the embedded API server: one hotsched, standing in for
 * kube-scheduler, serves {@code default-scheduler} and binds; a second one observes those pods with
 * its profile {@code observer}. Every request the observer sends is recorded by its client, and
 * every binding by the API server, so "binds none, writes nothing" is read from the wire.
 */
class ObserveOnlyPathTest {

    /** Why the observer's RefusesN2 refuses node n2 to the pods named d-*, which the stand-in has no plugin against. */
    private static final String REFUSAL = "node n2 is kept for other pods";

    private ApiServerFixture api;
    private ConnectedScheduler observer;
    private final List<String> observerRequests = new CopyOnWriteArrayList<>();

    /** A pod named {@code x-on-nK} fits node nK only: both schedulers can make one choice. */
    private static PluginFactory pinned() {
        return (a, h) -> new OnePoint.Filter(
                "Pinned",
                (s, pod, node) -> pod.name().endsWith("-on-" + node.name())
                        ? Status.SUCCESS
                        : Status.unresolvable("pinned to another node"));
    }

    @BeforeEach
    void start() throws Exception {
        api = new ApiServerFixture(
                Nodes.node("n1").cpu("4").build(),
                Nodes.node("n2").cpu("4").build(),
                Nodes.node("n3").cpu("4").build());
        Map<String, PluginFactory> standIn = ConnectedScheduler.simplePlugins();
        standIn.put("Pinned", pinned());
        api.connect(standIn, ConnectedScheduler.config("default-scheduler", standIn.keySet()));

        Map<String, PluginFactory> observing = ConnectedScheduler.simplePlugins();
        observing.put("Pinned", pinned());
        observing.put(
                "RefusesN2",
                (a, h) -> new OnePoint.Filter(
                        "RefusesN2",
                        (s, pod, node) ->
                                pod.name().startsWith("d-") && node.name().equals("n2")
                                        ? Status.unresolvable(REFUSAL)
                                        : Status.SUCCESS));
        observer = new ConnectedScheduler(
                recordingClient(), observing, ConnectedScheduler.config("observer", observing.keySet()), "observer");
        // the observer's own loop is idle: the bound is a share of one core, here all of it
        observer.scheduler.shadows().setLimits(100, 100);
        observer.scheduler.observe("default-scheduler", "observer");
        api.server.requests().start();
    }

    @AfterEach
    void stop() {
        if (observer != null) {
            observer.close();
        }
        api.close();
    }

    /** A client of the API server that notes the method and path of every request it sends. */
    private KubernetesClient recordingClient() {
        Config config = new ConfigBuilder(Config.empty())
                .withMasterUrl(api.server.url())
                .withHttp2Disable(true)
                .withNamespace("default")
                .build();
        Interceptor noting = new Interceptor() {
            @Override
            public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
                observerRequests.add(request.method() + " " + request.uri().getPath());
            }
        };
        return new KubernetesClientBuilder()
                .withConfig(config)
                .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("noting", noting))
                .build();
    }

    private ShadowFigures figures() {
        return observer.scheduler.shadows().figures().stream()
                .filter(ShadowFigures::observing)
                .findFirst()
                .orElseThrow();
    }

    private void awaitCompared(long n) throws InterruptedException {
        await(n + " compared", () -> figures().compared() + figures().faults() == n);
        assertTrue(observer.scheduler.shadows().awaitIdle(10_000));
    }

    @Test
    void agreesOnEveryPodTheOtherSchedulerBindsAndActsOnNothing() throws Exception {
        int n = 30;
        for (int i = 0; i < n; i++) {
            api.create(Pods.pod("p" + i + "-on-n" + (i % 3 + 1)).cpu("100m").build());
        }
        awaitCompared(n);
        ShadowFigures f = figures();
        assertEquals(n, f.agreed(), () -> "disagreements: " + f.lastDisagreements());
        assertEquals(0, f.faults(), () -> "last fault: " + f.lastFault());
        assertEquals(0, f.skippedCpu() + f.skippedQueue() + f.skippedPending());
        assertEquals("observe:observer", f.plugin());
        assertEquals("default-scheduler", f.servingVersion());
        for (int i = 0; i < n; i++) {
            assertEquals("n" + (i % 3 + 1), api.nodeOf("p" + i + "-on-n" + (i % 3 + 1)));
        }
        // each pod bound once (by the stand-in); the observer sent no request but reads
        Map<String, Integer> binds = api.server.requests().counts("bind ");
        assertEquals(n, binds.size());
        assertTrue(binds.values().stream().allMatch(c -> c == 1), binds::toString);
        assertEquals(Map.of(), api.server.requests().counts("status "));
        List<String> writes =
                observerRequests.stream().filter(r -> !r.startsWith("GET ")).toList();
        assertEquals(List.of(), writes);
        assertTrue(observerRequests.stream().anyMatch(r -> r.startsWith("GET ") && r.endsWith("/pods")), "it did read");
        List<Event> scheduled = api.events("Scheduled");
        assertEquals(n, scheduled.size());
        assertTrue(scheduled.stream().noneMatch(e -> "observer".equals(e.getReportingComponent())));
        // its pods never reached the observer's queue
        assertEquals(0, observer.scheduler.counters().get("scheduled"));
        assertTrue(observer.scheduler.queue().entries().isEmpty());
        StringBuilder text = new StringBuilder();
        observer.scheduler.metrics().writeText(text);
        assertTrue(
                text.toString()
                        .contains("hotsched_shadow_pods_total{plugin=\"observe:observer\","
                                + "serving_version=\"default-scheduler\",shadow_version=\"observer\",result=\"agree\"} "
                                + n),
                text::toString);
    }

    @Test
    void aBindingToANodeTheObserverRefusesIsADisagreementNamingThePluginAndReason() throws Exception {
        api.create(Pods.pod("a-on-n1").cpu("100m").build());
        api.create(Pods.pod("d-on-n2").cpu("100m").build());
        awaitCompared(2);
        assertEquals("n2", api.nodeOf("d-on-n2"));
        ShadowFigures f = figures();
        assertEquals(1, f.agreed());
        assertEquals(1, f.disagreed());
        ShadowResult r = f.lastDisagreements().get(0);
        assertEquals("default/d-on-n2", r.pod());
        assertEquals("n2", r.servingChoice());
        assertNull(r.shadowChoice(), "no node fits for the observer");
        assertEquals(List.of(new ShadowResult.NodeVerdict("n2", null, "RefusesN2: " + REFUSAL)), r.filterDiffs());
        String reason = "observer refuses: RefusesN2: " + REFUSAL;
        assertEquals(List.of(reason), r.reasons());
        assertEquals(Map.of(reason, 1L), f.disagreementsByReason());
        assertEquals(
                List.of(),
                observerRequests.stream().filter(x -> !x.startsWith("GET ")).toList());
    }

    @Test
    void aPodTheOtherSchedulerFindsNoNodeForIsComparedWhenItSaysSo() throws Exception {
        api.create(Pods.pod("u-on-n9").cpu("100m").build());
        awaitCompared(1);
        assertTrue(api.hasScheduledCondition("u-on-n9", "0/3 nodes are available: 3 pinned to another node."));
        ShadowFigures f = figures();
        assertEquals(1, f.agreed(), "neither finds a node");
        // the condition and the event are the stand-in's: the observer still wrote nothing
        assertEquals(
                List.of(),
                observerRequests.stream().filter(x -> !x.startsWith("GET ")).toList());
        assertTrue(api.events("FailedScheduling").stream().allMatch(e -> "hotsched".equals(e.getReportingComponent())));
    }

    @Test
    void settingsThatCannotBeObservedAreRefusedNamingTheFieldAndValue() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> observer.scheduler.observe("default-scheduler", "nope"));
        assertEquals(
                "observeProfile: Invalid value: \"nope\": no profile has that schedulerName in scheduler.yaml"
                        + " (profiles: observer)",
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> observer.scheduler.observe("observer", "observer"));
        assertTrue(e.getMessage().startsWith("observeSchedulerName: Invalid value: \"observer\""), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> observer.scheduler.observe("default-scheduler", ""));
        assertEquals(
                "observeProfile: empty while observeSchedulerName is \"default-scheduler\": set both, or neither (off)",
                e.getMessage());
        // refused settings leave the mode as it was
        assertTrue(observer.scheduler
                .observingState()
                .startsWith("profile observer decides for the pods of " + "default-scheduler"));
        observer.scheduler.observe("", "");
        assertEquals("off", observer.scheduler.observingState());
    }
}
