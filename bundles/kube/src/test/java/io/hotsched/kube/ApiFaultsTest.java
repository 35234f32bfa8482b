package io.hotsched.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.hotsched.api.framework.ClusterException;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.embedded.ApiFaults;
import io.hotsched.embedded.ApiFaults.Rule;
import io.hotsched.plugins.defaults.defaultbinder.DefaultBinder;
import io.hotsched.plugins.defaults.defaultbinder.DefaultBinderFactory;
import io.hotsched.plugins.defaults.noderesourcesfit.NodeResourcesFit;
import io.hotsched.plugins.defaults.noderesourcesfit.NodeResourcesFitFactory;
import io.hotsched.plugins.defaults.queuesort.PrioritySort;
import io.hotsched.plugins.defaults.queuesort.PrioritySortFactory;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The scheduler (the shipped sort, fit and binder, over HTTP) while the embedded API server
 * misbehaves: each test creates pods while one kind of fault is injected, ends the fault, and
 * counts from the API server's side. Expected every time: no pod bound twice (a stored binding per
 * bound pod, and no pod seen on two nodes), none lost, every pod bound once the fault ends.
 */
class ApiFaultsTest {

    private static final int NODES = 20;
    private static final int PODS = 200;
    private static final List<String> TABLE = new ArrayList<>();
    private static final String UNFIT = "0/" + NODES + " nodes are available: " + NODES + " Insufficient cpu.";

    private ApiServerFixture api;
    private CuttableProxy proxy;
    /** Pods that fit no node, created after the others: the scheduler writes their status and an event. */
    private int unfit;

    @BeforeEach
    void start() throws Exception {
        api = new ApiServerFixture();
        for (int i = 0; i < NODES; i++) {
            api.create(Nodes.node("n" + i).cpu("4").pods(110).build());
        }
        api.server.requests().start();
        proxy = new CuttableProxy(api.server.port());
        api.connect(proxy.url(), PLUGINS, ConnectedScheduler.config(PLUGINS));
    }

    private static final Map<String, PluginFactory> PLUGINS = new LinkedHashMap<>();

    static {
        PLUGINS.put(PrioritySort.NAME, new PrioritySortFactory());
        PLUGINS.put(NodeResourcesFit.NAME, new NodeResourcesFitFactory());
        PLUGINS.put(DefaultBinder.NAME, new DefaultBinderFactory());
    }

    @AfterEach
    void stop() throws Exception {
        api.close();
        proxy.close();
    }

    @AfterAll
    static void table() {
        System.out.println("fault table | fault | rate | created | bound | bound twice | lost | recovery ms | "
                + "binds per pod, most | shortest retry gap ms | injected");
        TABLE.forEach(System.out::println);
    }

    private ApiFaults faults() {
        return api.server.faults();
    }

    @Test
    void unavailableBindingsWithRetryAfter() throws Exception {
        retryAfterSeconds = 1;
        run(
                "503 + Retry-After: 1 on bindings",
                "1 in 3",
                () -> faults().add(Rule.refuse("bind-503", "POST", ApiFaults.BINDINGS, 3, 503)
                        .retryAfter(1)));
    }

    @Test
    void bindingsThatTookEffectButAnsweredAnError() throws Exception {
        run(
                "500 after the binding was stored",
                "1 in 2",
                () -> faults().add(Rule.afterCommit("bind-lost-answer", "POST", ApiFaults.BINDINGS, 2, 500)));
    }

    @Test
    void conflictingBindings() throws Exception {
        run(
                "409 Conflict on bindings",
                "1 in 4",
                () -> faults().add(Rule.refuse("bind-409", "POST", ApiFaults.BINDINGS, 4, 409)));
    }

    @Test
    void podsBoundByAnotherSchedulerMeanwhile() throws Exception {
        // every 4th pod is bound by "another scheduler" (this test) as soon as it exists
        othersBind = true;
        run("pods bound by another scheduler", "1 in 4", () -> {}, i -> {
            if (i % 4 != 0) {
                return;
            }
            try {
                api.client
                        .bindings()
                        .inNamespace("default")
                        .resource(new BindingBuilder()
                                .withNewMetadata()
                                .withName("p-" + i)
                                .endMetadata()
                                .withNewTarget()
                                .withKind("Node")
                                .withName("n" + (i % NODES))
                                .endTarget()
                                .build())
                        .create();
            } catch (KubernetesClientException e) {
                // the scheduler was first: the race this case is about
                if (e.getCode() != 409) {
                    throw e;
                }
            }
        });
    }

    @Test
    void slowBindings() throws Exception {
        run(
                "bindings answered 3 s late",
                "1 in 5",
                () -> faults().add(Rule.slow("bind-slow", "POST", ApiFaults.BINDINGS, 5, Duration.ofSeconds(3))));
    }

    @Test
    void throttledWrites() throws Exception {
        unfit = 10;
        retryAfterSeconds = 1;
        run("429 + Retry-After: 1 on bindings, status and events", "1 in 3", () -> {
            faults().add(Rule.refuse("bind-429", "POST", ApiFaults.BINDINGS, 3, 429)
                    .retryAfter(1));
            faults().add(Rule.refuse("status-429", "PATCH", ApiFaults.POD_STATUS, 3, 429)
                    .retryAfter(1));
            faults().add(Rule.refuse("events-429", "POST", ApiFaults.EVENTS, 3, 429)
                    .retryAfter(1));
        });
    }

    @Test
    @Timeout(60)
    void aBindingRefusedThroughoutIsSentOncePerAttemptEachAfterItsRetryAfter() throws Exception {
        // no scheduler: the one bind is this test's, through the backend the scheduler writes with
        api.scheduler.close();
        api.scheduler = null;
        api.create(Pods.pod("solo").cpu("100m").build());
        Pod pod = api.client.pods().inNamespace("default").withName("solo").get();
        faults().add(Rule.refuse("bind-429-all", "POST", ApiFaults.BINDINGS, 1, 429)
                .retryAfter(1));
        try (KubernetesClient client = ClientFactory.create(proxy.url(), null, 4)) {
            KubeBackend backend = new KubeBackend(client, "hotsched");
            ClusterException e = assertThrows(ClusterException.class, () -> backend.bind(pod, "n0"));
            assertEquals(429, e.code(), "the code of the last refusal: " + e.getMessage());
        }
        List<Long> sent = api.server.requests().arrivals("bind default/solo");
        List<Long> gaps = new ArrayList<>();
        for (int j = 1; j < sent.size(); j++) {
            gaps.add(TimeUnit.NANOSECONDS.toMillis(sent.get(j) - sent.get(j - 1)));
        }
        System.out.println("fault table note | one bind refused throughout (429 + Retry-After: 1): " + sent.size()
                + " binding requests, gaps ms " + gaps);
        // fabric8's own retries would send each attempt up to 11 times, 100 ms apart at first
        assertEquals(KubeBackend.ATTEMPTS, sent.size(), "binding requests of one refused bind, gaps ms " + gaps);
        for (long gap : gaps) {
            assertTrue(gap >= 1_000, "a retry " + gap + " ms after a refusal with Retry-After: 1, gaps ms " + gaps);
        }
    }

    @Test
    void failingStatusAndEventWrites() throws Exception {
        unfit = 10;
        run("500 on pod status and events", "1 in 2", () -> {
            faults().add(Rule.refuse("status-500", "PATCH", ApiFaults.POD_STATUS, 2, 500));
            faults().add(Rule.refuse("events-500", "POST", ApiFaults.EVENTS, 2, 500));
        });
    }

    @Test
    void droppedWatchesResumedFromACompactedVersionWhileListsFail() throws Exception {
        run("watches dropped, history compacted (410), lists 503", "all, 1 in 2 lists", () -> {
            faults().add(Rule.refuse("list-503", "GET", ApiFaults.LISTS, 2, 503));
            api.server.dropWatches(true);
        });
    }

    @Test
    void apiServerUnreachableForThreeSeconds() throws Exception {
        long[] cutAt = new long[1];
        run(
                "connection refused for 3 s (server restarted, same state)",
                "all",
                () -> {
                    proxy.cut();
                    cutAt[0] = System.nanoTime();
                },
                i -> {},
                () -> {
                    // the pods are created through the test's own client; the scheduler sees none meanwhile
                    long left = TimeUnit.SECONDS.toNanos(3) - (System.nanoTime() - cutAt[0]);
                    if (left > 0) {
                        TimeUnit.NANOSECONDS.sleep(left);
                    }
                    proxy.restore();
                });
    }

    @Test
    void bindingsRefusedThroughoutAreRetriedWithBackoffNotInALoop() throws Exception {
        long[] from = new long[1];
        run(
                "503 on every binding for 3 s",
                "all",
                () -> {
                    faults().add(Rule.refuse("bind-503-all", "POST", ApiFaults.BINDINGS, 1, 503));
                    from[0] = System.nanoTime();
                },
                i -> {},
                () -> sleepUntil(from[0], 3));
    }

    @Test
    void bindingsAnsweredAfterTheClientsRequestTimeOut() throws Exception {
        // a client that gives up after 1 s, as the scheduler's does after its 10 s: the binding is stored, the answer
        // lost
        api.scheduler.close();
        api.connect(
                new KubernetesClientBuilder()
                        .withConfig(new ConfigBuilder(Config.empty())
                                .withMasterUrl(proxy.url())
                                .withHttp2Disable(true)
                                .withNamespace("default")
                                .withRequestTimeout(1000)
                                .build())
                        .build(),
                PLUGINS,
                ConnectedScheduler.config(PLUGINS));
        run(
                "bindings answered 2 s late, client time-out 1 s",
                "1 in 5",
                () -> faults().add(
                                Rule.slow("bind-past-timeout", "POST", ApiFaults.BINDINGS, 5, Duration.ofSeconds(2))));
    }

    @Test
    void watchStartsRefusedWhileWatchesDrop() throws Exception {
        long[] from = new long[1];
        run(
                "watches dropped, restarts answered 500 for 3 s",
                "all",
                () -> {
                    faults().add(Rule.refuse("watch-500", "GET", ApiFaults.WATCHES, 1, 500));
                    api.server.dropWatches(false);
                    from[0] = System.nanoTime();
                },
                i -> {},
                () -> {
                    sleepUntil(from[0], 3);
                    for (String path : List.of("/api/v1/pods", "/api/v1/nodes")) {
                        watchStartsInFault += (int) api.server.requests().arrivals("watch " + path).stream()
                                .filter(t -> t >= from[0])
                                .count();
                    }
                });
        System.out.println(
                "fault table note | pod and node watch starts in 3 s of 500s (2 informers): " + watchStartsInFault);
        // the informers restart a watch with backoff: a loop would try hundreds of times in 3 s
        assertTrue(watchStartsInFault <= 30, "pod and node watch starts in 3 s: " + watchStartsInFault);
    }

    private int watchStartsInFault;

    @Test
    void leaseRequestsRefusedMakeTheLeaderStepDownThenLeadAgain() throws Exception {
        api.scheduler.close();
        api.scheduler = null;
        try (LeaderElectionTest.Replica leader = new LeaderElectionTest.Replica(proxy.url(), "replica-a")) {
            Await.until("the replica leads", 30, leader.scheduler::isLeading);
            long from = System.nanoTime();
            int leaseBefore = leaseRequests();
            for (String method : List.of("GET", "PUT", "POST", "PATCH")) {
                faults().add(Rule.refuse("lease-503-" + method, method, ApiFaults.LEASES, 1, 503));
            }
            Await.until("the leader stepped down", 30, () -> !leader.scheduler.isLeading());
            for (int i = 0; i < PODS; i++) {
                api.create(Pods.pod("p-" + i).cpu("100m").build());
            }
            sleepUntil(from, 3);
            int leaseInFault = leaseRequests() - leaseBefore;
            int bindsInFault = leader.binds.get();
            Map<String, Long> injected = faults().injected();
            faults().clear();
            long cleared = System.nanoTime();
            Await.until("every pod bound after the fault ended", 60, () -> bound() == PODS);
            tally("503 on every Lease request for 3 s (leader)", "all", injected, cleared);
            System.out.println("fault table note | Lease requests in 3 s of 503s: " + leaseInFault
                    + "; bindings sent while not leading: " + bindsInFault);
            assertEquals(0, bindsInFault, "bindings sent by a replica that lost the lease");
            // one try per 200 ms retry period, not a loop
            assertTrue(leaseInFault <= 3_000 / 200 * 2 + 2, "Lease requests in 3 s: " + leaseInFault);
        }
    }

    private int leaseRequests() {
        return api.server.requests().counts("lease ").values().stream()
                .mapToInt(Integer::intValue)
                .sum();
    }

    private static void sleepUntil(long from, int seconds) throws InterruptedException {
        // the fault lasts this long: its duration is the case, not a wait for something to happen
        long left = TimeUnit.SECONDS.toNanos(seconds) - (System.nanoTime() - from);
        if (left > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }

    private void run(String fault, String rate, ThrowingRunnable inject) throws Exception {
        run(fault, rate, inject, i -> {});
    }

    private void run(String fault, String rate, ThrowingRunnable inject, IntConsumer afterCreate) throws Exception {
        run(fault, rate, inject, afterCreate, () -> {});
    }

    /**
     * Injects, creates the pods ({@code afterCreate} after each), ends the fault ({@code
     * beforeClear} first), waits until every pod is bound and counts.
     */
    private void run(
            String fault, String rate, ThrowingRunnable inject, IntConsumer afterCreate, ThrowingRunnable beforeClear)
            throws Exception {
        inject.run();
        for (int i = 0; i < PODS; i++) {
            api.create(Pods.pod("p-" + i).cpu("100m").build());
            afterCreate.accept(i);
        }
        for (int i = 0; i < unfit; i++) {
            api.create(Pods.pod("unfit-" + i).cpu("100").build());
        }
        if (unfit > 0) {
            Await.until(
                    "status writes of the unfit pods tried under the fault",
                    30,
                    () -> faults().injected().entrySet().stream()
                            .anyMatch(e -> e.getKey().startsWith("status-") && e.getValue() > 0));
        }
        beforeClear.run();
        Map<String, Long> injected = faults().injected();
        faults().clear();
        long cleared = System.nanoTime();
        try {
            Await.until("every pod bound after the fault ended", 60, () -> bound() == PODS);
        } finally {
            tally(fault, rate, injected, cleared);
        }
        for (int i = 0; i < unfit; i++) {
            String name = "unfit-" + i;
            Await.until(name + " told why it waits", 30, () -> api.hasScheduledCondition(name, UNFIT));
        }
        // the scheduler's cache holds each pod once, none still assumed
        Await.until(
                "the cache confirmed every binding",
                30,
                () -> api.scheduler.scheduler.cache().assumedCount() == 0
                        && api.scheduler.scheduler.cache().podCount() == PODS);
    }

    /**
     * Counts from the API server's side and adds the table's row: bound, bound twice, lost, and per
     * pod how often its binding was sent and how soon after the one before (a retry in a loop
     * would show in both).
     */
    private void tally(String fault, String rate, Map<String, Long> injected, long cleared) {
        long recovery = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - cleared);
        int bound = bound();
        int stored = api.server.bindsIn("default");
        long twice = api.seen.values().stream()
                .filter(versions -> versions.stream()
                                .map(p -> p.getSpec().getNodeName())
                                .filter(n -> n != null)
                                .distinct()
                                .count()
                        > 1)
                .count();
        int mostBinds = 0;
        long shortestGap = Long.MAX_VALUE;
        for (int i = 0; i < PODS; i++) {
            List<Long> sent = api.server.requests().arrivals("bind default/p-" + i);
            mostBinds = Math.max(mostBinds, sent.size());
            for (int j = 1; j < sent.size(); j++) {
                shortestGap = Math.min(shortestGap, sent.get(j) - sent.get(j - 1));
            }
        }
        String gap = shortestGap == Long.MAX_VALUE ? "-" : Long.toString(shortestGap / 1_000_000);
        String row = String.format(
                "fault table | %s | %s | %d | %d | %d | %d | %d | %d | %s | %s",
                fault,
                rate,
                PODS,
                bound,
                Math.max(twice, stored - bound),
                PODS - bound,
                recovery,
                mostBinds,
                gap,
                injected);
        System.out.println(row);
        TABLE.add(row);
        assertEquals(0, twice, "pods seen on two nodes");
        assertEquals(bound, stored, "stored bindings, one per bound pod");
        assertEquals(PODS, bound, "pods bound (the others lost)");
        // one bind of the scheduler is at most ATTEMPTS requests, the client sending each once; a pod whose bind
        // failed is tried once more after its backoff. More would be retries multiplied, or a loop
        assertTrue(
                mostBinds <= MOST_BINDS_PER_POD,
                "binds per pod " + mostBinds + " over " + MOST_BINDS_PER_POD + ": " + row);
        if (!othersBind) {
            // a pod's bindings stop at the one that took: each gap is from a refused binding to its retry
            long least = retryAfterSeconds > 0 ? TimeUnit.SECONDS.toNanos(retryAfterSeconds) : SHORTEST_RETRY_GAP_NANOS;
            assertTrue(
                    shortestGap >= least,
                    "shortest retry gap " + gap + " ms under " + TimeUnit.NANOSECONDS.toMillis(least) + " ms: " + row);
        }
    }

    private static final int MOST_BINDS_PER_POD = 2 * KubeBackend.ATTEMPTS;
    private static final long SHORTEST_RETRY_GAP_NANOS = TimeUnit.MILLISECONDS.toNanos(80);

    /** The Retry-After of the case's refusals, 0 for none: no retry may come sooner. */
    private long retryAfterSeconds;

    /** Set by the case where the test binds pods too: those requests are not the scheduler's retries. */
    private boolean othersBind;

    private int bound() {
        int n = 0;
        for (Pod p : api.client.pods().inNamespace("default").list().getItems()) {
            if (p.getSpec().getNodeName() != null) {
                n++;
            }
        }
        return n;
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }
}
