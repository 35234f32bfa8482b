package io.hotsched.core.extender;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hotsched.api.framework.Code;
import io.hotsched.api.framework.ExtenderException;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.Status;
import io.hotsched.api.framework.Victims;
import io.hotsched.core.config.ExtenderConfig;
import io.hotsched.core.runtime.Snapshot;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The extender protocol against a real HTTP server answering upstream-shaped JSON. */
class HttpExtenderTest {

    private final ExtenderServer server;
    private final JsonMapper json = JsonMapper.builder().build();
    private final List<NodeInfo> nodes = List.of(node("n1"), node("n2"), node("n3"));
    private final PodInfo pod = Pods.pod("p").uid("uid-p").cpu("100m").info();

    HttpExtenderTest() throws Exception {
        server = new ExtenderServer();
    }

    @AfterEach
    void close() {
        server.close();
    }

    private static NodeInfo node(String name) {
        return new NodeInfo(Nodes.node(name).cpu("4").build());
    }

    static ExtenderConfig config(
            String url,
            boolean nodeCacheCapable,
            boolean ignorable,
            long weight,
            Duration timeout,
            List<ExtenderConfig.ManagedResource> managed) {
        return new ExtenderConfig(
                url,
                "filter",
                "preempt",
                "prioritize",
                weight,
                "bind",
                false,
                null,
                timeout,
                nodeCacheCapable,
                managed,
                ignorable);
    }

    private HttpExtender extender(boolean nodeCacheCapable) throws Exception {
        return new HttpExtender(
                config(server.url(), nodeCacheCapable, false, 1, Duration.ofSeconds(5), List.of()),
                HttpExtender.mapper());
    }

    private static List<String> names(List<NodeInfo> l) {
        return l.stream().map(NodeInfo::name).toList();
    }

    @Test
    void filterSendsWholeNodesAndReadsTheNodesAnswered() throws Exception {
        server.answer("filter", """
                {"Nodes":{"metadata":{},"items":[{"metadata":{"name":"n3"}},{"metadata":{"name":"n1"}}]},
                 "NodeNames":null,"FailedNodes":{"n2":"no fast disk"},"FailedAndUnresolvableNodes":{},"Error":""}""");
        HttpExtender.FilterOutcome r = extender(false).filter(pod, nodes);
        assertEquals(List.of("n3", "n1"), names(r.feasible()));
        assertEquals(Map.of("n2", "no fast disk"), r.failed());

        assertEquals("POST /scheduler/filter application/json", server.paths.get(0));
        JsonNode sent = json.readTree(server.last());
        assertEquals(List.of("Pod", "Nodes", "NodeNames"), iterable(sent.propertyNames()));
        assertEquals("p", sent.get("Pod").get("metadata").get("name").asString());
        assertEquals(
                "100m",
                sent.get("Pod")
                        .get("spec")
                        .get("containers")
                        .get(0)
                        .get("resources")
                        .get("requests")
                        .get("cpu")
                        .asString());
        assertEquals(3, sent.get("Nodes").get("items").size());
        assertEquals(
                "n1",
                sent.get("Nodes")
                        .get("items")
                        .get(0)
                        .get("metadata")
                        .get("name")
                        .asString());
        assertTrue(sent.get("NodeNames").isNull(), "NodeNames is nil without nodeCacheCapable: " + sent);
    }

    @Test
    void filterWithNodeNamesReadsAnswersCaseInsensitivelyAndUnresolvableWins() throws Exception {
        server.answer("filter", """
                {"nodenames":["n2"],"failednodes":{"n1":"busy","n3":"busy"},"failedandunresolvablenodes":{"n1":"wrong zone"}}""");
        HttpExtender.FilterOutcome r = extender(true).filter(pod, nodes);
        assertEquals(List.of("n2"), names(r.feasible()));
        JsonNode sent = json.readTree(server.last());
        assertTrue(sent.get("Nodes").isNull());
        assertEquals("[\"n1\",\"n2\",\"n3\"]", sent.get("NodeNames").toString());

        Map<String, Status> statuses = new HashMap<>();
        Extenders one =
                Extenders.of(List.of(config(server.url(), true, false, 1, Duration.ofSeconds(5), List.of())), null);
        assertEquals(List.of("n2"), names(one.filter(pod, nodes, statuses)));
        assertEquals(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, statuses.get("n1").code());
        assertEquals("wrong zone", statuses.get("n1").message());
        assertEquals(Code.UNSCHEDULABLE, statuses.get("n3").code());
        assertEquals("busy", statuses.get("n3").message());
    }

    @Test
    void filterErrorsNameWhatWentWrong() throws Exception {
        server.answer("filter", "{\"NodeNames\":[\"n9\"]}");
        ExtenderException e =
                assertThrows(ExtenderException.class, () -> extender(true).filter(pod, nodes));
        assertEquals(
                "extender \"" + server.url()
                        + "\" claims a filtered node \"n9\" which is not found in the input node list",
                e.getMessage());

        server.answer("filter", "{\"Error\":\"myerror\"}");
        assertEquals(
                "myerror",
                assertThrows(ExtenderException.class, () -> extender(true).filter(pod, nodes))
                        .getMessage());

        server.answer("filter", ExtenderServer.Answer.status(500, "boom"));
        assertEquals(
                "failed filter with extender at URL " + server.url() + "filter, code 500",
                assertThrows(ExtenderException.class, () -> extender(true).filter(pod, nodes))
                        .getMessage());

        server.answer("filter", "[1,2]");
        assertTrue(assertThrows(ExtenderException.class, () -> extender(true).filter(pod, nodes))
                .getMessage()
                .startsWith(
                        "extender " + server.url() + " answered filter with JSON that is not a ExtenderFilterResult"));
    }

    @Test
    void anAnswerWithoutNodesFiltersEveryNode() throws Exception {
        server.answer("filter", "{\"FailedNodes\":{}}");
        assertEquals(List.of(), extender(false).filter(pod, nodes).feasible());
    }

    @Test
    void anIgnorableExtendersErrorIsSkippedAnotherFailsTheAttempt() throws Exception {
        server.answer("filter", ExtenderServer.Answer.status(503, ""));
        Map<String, Status> statuses = new HashMap<>();
        Extenders ignorable =
                Extenders.of(List.of(config(server.url(), true, true, 1, Duration.ofSeconds(5), List.of())), null);
        assertEquals(names(nodes), names(ignorable.filter(pod, nodes, statuses)));
        Extenders strict =
                Extenders.of(List.of(config(server.url(), true, false, 1, Duration.ofSeconds(5), List.of())), null);
        assertThrows(ExtenderException.class, () -> strict.filter(pod, nodes, statuses));
        assertTrue(statuses.isEmpty());
    }

    @Test
    void aTimeOutIsAnErrorAndTheExtenderIsNotCalledAgainDuringItsCoolDown() throws Exception {
        CountDownLatch thinking = new CountDownLatch(1);
        server.answer("filter", ExtenderServer.Answer.held("{\"NodeNames\":[\"n1\"]}", thinking));
        HttpExtender slow = new HttpExtender(
                config(server.url(), true, false, 1, Duration.ofMillis(300), List.of()), HttpExtender.mapper());
        try {
            ExtenderException first = assertThrows(ExtenderException.class, () -> slow.filter(pod, nodes));
            assertEquals(
                    "Post \"" + server.url() + "filter\": no answer within 300ms (httpTimeout)", first.getMessage());
            int calls = server.requests.size();
            ExtenderException next = assertThrows(ExtenderException.class, () -> slow.filter(pod, nodes));
            assertTrue(next.getMessage().contains(": its last call got no answer within 300ms"), next.getMessage());
            assertEquals(calls, server.requests.size(), "not called during the cool-down");
        } finally {
            thinking.countDown();
        }
    }

    @Test
    void prioritizeScoresAreWeightedTimesTenAndErrorsAreIgnored() throws Exception {
        server.answer("prioritize", "[{\"Host\":\"n1\",\"Score\":7},{\"host\":\"n2\",\"score\":3}]");
        try (ExtenderServer broken = new ExtenderServer()) {
            broken.answer("prioritize", ExtenderServer.Answer.status(500, ""));
            Extenders both = Extenders.of(
                    List.of(
                            config(server.url(), true, false, 2, Duration.ofSeconds(5), List.of()),
                            config(broken.url(), true, false, 5, Duration.ofSeconds(5), List.of())),
                    null);
            List<Extenders.Scores> scores = both.prioritize(pod, nodes);
            assertEquals(1, scores.size(), "the failing prioritizer adds nothing");
            assertEquals(Map.of("n1", 7L, "n2", 3L), scores.get(0).raw());
            assertEquals(20, scores.get(0).factor(), "weight 2 × MaxNodeScore/MaxExtenderPriority");
            assertEquals(server.url(), scores.get(0).extender());
        }
    }

    @Test
    void onlyPodsUsingAManagedResourceAreSent() throws Exception {
        HttpExtender gpu = new HttpExtender(
                config(
                        server.url(),
                        true,
                        false,
                        1,
                        Duration.ofSeconds(5),
                        List.of(new ExtenderConfig.ManagedResource("example.com/gpu", false))),
                HttpExtender.mapper());
        assertFalse(gpu.isInterested(pod));
        assertTrue(
                gpu.isInterested(Pods.pod("g").request("example.com/gpu", "1").info()));
        var initOnly = Pods.pod("i").build();
        initOnly.getSpec()
                .setInitContainers(List.of(new ContainerBuilder()
                        .withName("init")
                        .withNewResources()
                        .addToLimits("example.com/gpu", new Quantity("1"))
                        .endResources()
                        .build()));
        assertTrue(gpu.isInterested(PodInfo.of(initOnly)), "a limit of an init container counts");
        assertTrue(extender(true).isInterested(pod), "no managed resources: every pod");

        Extenders managed = Extenders.of(List.of(gpu.config()), null);
        assertEquals(names(nodes), names(managed.filter(pod, nodes, new HashMap<>())));
        assertEquals(0, server.requests.size(), "a pod without the resource never reaches the extender");
    }

    @Test
    void theBinderBindsAndAnIgnorableBindersErrorFallsThroughToTheBindPlugins() throws Exception {
        server.answer("bind", "{\"Error\":\"\"}");
        Extenders binder =
                Extenders.of(List.of(config(server.url(), true, false, 1, Duration.ofSeconds(5), List.of())), null);
        assertEquals(Status.SUCCESS, binder.bind(pod, "n2"));
        JsonNode sent = json.readTree(server.last());
        assertEquals(
                "{\"PodName\":\"p\",\"PodNamespace\":\"default\",\"PodUID\":\"uid-p\",\"Node\":\"n2\"}",
                sent.toString());

        server.answer("bind", "{\"Error\":\"node is full\"}");
        Status failed = binder.bind(pod, "n2");
        assertEquals(Code.ERROR, failed.code());
        assertEquals("node is full", failed.message());
        Extenders ignorable =
                Extenders.of(List.of(config(server.url(), true, true, 1, Duration.ofSeconds(5), List.of())), null);
        assertNull(ignorable.bind(pod, "n2"), "falls through to the Bind plugins");
    }

    @Test
    void preemptionSendsMetaVictimsWithNodeCacheAndResolvesTheAnsweredUids() throws Exception {
        NodeInfo n1 = node("n1");
        PodInfo v1 = Pods.pod("v1").uid("uid-v1").node("n1").cpu("1").info();
        PodInfo v2 = Pods.pod("v2").uid("uid-v2").node("n1").cpu("1").info();
        n1.addPod(v1);
        n1.addPod(v2);
        Snapshot snapshot = new Snapshot(List.of(n1, node("n2")));
        server.answer(
                "preempt",
                "{\"NodeNameToMetaVictims\":{\"n1\":{\"Pods\":[{\"UID\":\"uid-v2\"}],\"NumPDBViolations\":0}}}");
        Map<String, Victims> in = Map.of("n1", new Victims(List.of(v1, v2), 1));
        Map<String, Victims> out = extender(true).processPreemption(pod, in, snapshot);
        assertEquals(
                List.of("v2"), out.get("n1").pods().stream().map(PodInfo::name).toList());
        JsonNode sent = json.readTree(server.last());
        assertTrue(sent.get("NodeNameToVictims").isNull());
        assertEquals(
                "{\"Pods\":[{\"UID\":\"uid-v1\"},{\"UID\":\"uid-v2\"}],\"NumPDBViolations\":1}",
                sent.get("NodeNameToMetaVictims").get("n1").toString());

        extender(false).processPreemption(pod, in, snapshot);
        JsonNode full = json.readTree(server.last());
        assertTrue(full.get("NodeNameToMetaVictims").isNull());
        assertEquals(
                "v1",
                full.get("NodeNameToVictims")
                        .get("n1")
                        .get("Pods")
                        .get(0)
                        .get("metadata")
                        .get("name")
                        .asString());

        server.answer("preempt", "{\"NodeNameToMetaVictims\":{\"n1\":{\"Pods\":[{\"UID\":\"nobody\"}]}}}");
        assertEquals(
                "extender: " + server.url()
                        + " claims to preempt pod (UID: nobody) on node: n1, but the pod is not found on that node",
                assertThrows(ExtenderException.class, () -> extender(true).processPreemption(pod, in, snapshot))
                        .getMessage());
    }

    @Test
    void ignorableExtendersAreCalledAfterTheOthers() throws Exception {
        Extenders e = Extenders.of(
                List.of(
                        config("http://a/", true, true, 1, Duration.ofSeconds(1), List.of()),
                        config("http://b/", true, false, 1, Duration.ofSeconds(1), List.of()),
                        config("http://c/", true, true, 1, Duration.ofSeconds(1), List.of())),
                null);
        assertEquals(
                List.of("http://b/", "http://a/", "http://c/"),
                e.all().stream().map(HttpExtender::name).toList());
        List<ExtenderConfig> same = List.of(
                e.all().get(1).config(), e.all().get(0).config(), e.all().get(2).config());
        assertTrue(Extenders.of(same, e) == e, "an unchanged list keeps its clients and their connections");
        assertTrue(Extenders.of(same.subList(0, 2), e) != e);
    }

    private static List<String> iterable(Collection<String> c) {
        return new ArrayList<>(c);
    }
}
