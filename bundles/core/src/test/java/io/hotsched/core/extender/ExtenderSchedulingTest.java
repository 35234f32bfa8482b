package io.hotsched.core.extender;

import static io.hotsched.core.support.SchedulerFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.core.admin.ExplainView;
import io.hotsched.core.config.ConfigParser;
import io.hotsched.core.support.SchedulerFixture;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Extenders in the scheduling cycle: they filter, score and bind as in kube-scheduler. */
class ExtenderSchedulingTest {

    private final SchedulerFixture f = new SchedulerFixture().withBasePlugins();
    private ExtenderServer server;

    @BeforeEach
    void start() throws Exception {
        server = new ExtenderServer();
        for (int i = 1; i <= 3; i++) {
            f.cluster.addNode(Nodes.node("n" + i).cpu("4").build());
        }
    }

    @AfterEach
    void close() {
        f.close();
        server.close();
    }

    private String withExtender(String fields) {
        return SchedulerFixture.BASE + "extenders:\n- urlPrefix: \"" + server.url() + "\"\n" + fields.indent(2);
    }

    /** Starts the scheduler with the extender of {@code fields}, then adds pod p (100m cpu). */
    private void startWithPodP(String fields) throws Exception {
        f.start(withExtender(fields));
        f.cluster.addPod(Pods.pod("p").cpu("100m").build());
    }

    /** The node of the one binding, once there is one. */
    private String boundNode() {
        await("bound", () -> f.cluster.bindings().size() == 1);
        return f.cluster.bindings().get(0).nodeName();
    }

    private ExplainView explained(String pod) {
        return f.scheduler.explain("default/" + pod);
    }

    @Test
    void theFilterVerbDecidesWhereThePodGoes() throws Exception {
        server.answer(
                "filter",
                "{\"NodeNames\":[\"n3\"],\"FailedNodes\":{\"n1\":\"no licence here\",\"n2\":\"no licence here\"}}");
        startWithPodP("filterVerb: filter\nnodeCacheCapable: true");
        assertEquals("n3", boundNode());
        JsonNode sent = JsonMapper.builder().build().readTree(server.last());
        List<String> names = new ArrayList<>();
        sent.get("NodeNames").forEach(n -> names.add(n.asString()));
        Collections.sort(names);
        assertEquals(
                List.of("n1", "n2", "n3"),
                names,
                "after the Filter plugins, every node that fits (in the order found)");
    }

    @Test
    void extenderRejectionsAreInTheFitErrorAndExplain() throws Exception {
        server.answer(
                "filter",
                "{\"NodeNames\":[],\"FailedNodes\":{\"n1\":\"no licence here\",\"n2\":\"no licence here\"},"
                        + "\"FailedAndUnresolvableNodes\":{\"n3\":\"wrong rack\"}}");
        startWithPodP("filterVerb: filter\nnodeCacheCapable: true");
        await(
                "unschedulable",
                () -> explained("p") != null
                        && "unschedulable".equals(explained("p").outcome()));
        assertEquals(
                "0/3 nodes are available: 1 wrong rack, 2 no licence here.",
                explained("p").message(),
                "upstream sorts the reasons as strings");
        assertEquals("wrong rack", explained("p").rejections().get("n3"));
        assertTrue(f.cluster.bindings().isEmpty());
    }

    @Test
    void prioritizeScoresAreAddedWeightedToThePluginTotals() throws Exception {
        server.answer(
                "prioritize",
                "[{\"Host\":\"n1\",\"Score\":0},{\"Host\":\"n2\",\"Score\":10},{\"Host\":\"n3\",\"Score\":1}]");
        startWithPodP("prioritizeVerb: prioritize\nweight: 5\nnodeCacheCapable: true");
        assertEquals("n2", boundNode());
        ExplainView.NodeScores top = explained("p").topScores().get(0);
        assertEquals("n2", top.node());
        assertEquals("10×50", top.byPlugin().get("extender " + server.url()), top.toString());
    }

    @Test
    void theBinderExtenderBindsInsteadOfTheBindPlugins() throws Exception {
        server.answer("bind", body -> {
            JsonNode b = JsonMapper.builder().build().readTree(body);
            f.cluster.bind(
                    f.cluster.pod(
                            b.get("PodNamespace").asString(), b.get("PodName").asString()),
                    b.get("Node").asString());
            return ExtenderServer.Answer.json("{\"Error\":\"\"}");
        });
        startWithPodP("bindVerb: bind");
        await("bound", () -> f.cluster.bindings().size() == 1);
        await(
                "recorded bound",
                () -> explained("p") != null && explained("p").outcome().startsWith("bound to"));
        assertEquals(1, server.requests.size());
        assertEquals(1, f.cluster.bindings().size(), "DefaultBinder did not bind again");
    }

    @Test
    void aFilterErrorFailsTheAttemptUnlessTheExtenderIsIgnorable() throws Exception {
        server.answer("filter", ExtenderServer.Answer.status(500, ""));
        startWithPodP("filterVerb: filter");
        assertEquals(
                "failed filter with extender at URL " + server.url() + "filter, code 500", f.awaitError("default/p"));

        // the extenders list is live configuration: a reload makes the extender ignorable
        f.scheduler.reload(ConfigParser.parse(withExtender("filterVerb: filter\nignorable: true"), "s.yaml"));
        await("bound despite the failing extender", () -> f.cluster.bindings().size() == 1);
    }

    private static final String GPU_ONLY = "managedResources:\n- name: example.com/gpu\n";

    /**
     * Starts with an extender for example.com/gpu that answers {@code node} once {@code thinking}
     * opens, and returns once it has been asked about pod gpu ({@code cpu}, one GPU).
     */
    private void startWithSlowExtenderAsked(String node, CountDownLatch thinking, String cpu) throws Exception {
        server.answer("filter", ExtenderServer.Answer.held("{\"NodeNames\":[\"" + node + "\"]}", thinking));
        f.scheduler.timeouts().setExtenderWait(50);
        f.start(withExtender("filterVerb: filter\nnodeCacheCapable: true\n" + GPU_ONLY));
        f.cluster.addPod(
                Pods.pod("gpu").cpu(cpu).request("example.com/gpu", "1").build());
        await("the extender asked", () -> server.requests.size() == 1);
    }

    @Test
    void podsTheSlowExtenderDoesNotHandleAreNotHeldUpByIt() throws Exception {
        CountDownLatch thinking = new CountDownLatch(1);
        startWithSlowExtenderAsked("n2", thinking, "100m");
        for (int i = 0; i < 20; i++) {
            f.cluster.addPod(Pods.pod("plain-" + i).cpu("100m").build());
        }
        await(
                "the other pods bound while the extender thinks",
                () -> f.cluster.bindings().size() == 20);
        assertTrue(
                f.cluster.bindings().stream().noneMatch(b -> b.podKey().equals("default/gpu")),
                "the extender has not answered yet");
        thinking.countDown();
        await(
                "the slow pod bound where the extender said",
                () -> f.cluster.bindings().size() == 21);
        assertEquals(
                "n2",
                f.cluster.bindings().stream()
                        .filter(b -> b.podKey().equals("default/gpu"))
                        .findFirst()
                        .orElseThrow()
                        .nodeName());
    }

    @Test
    void aNodeThatFilledUpWhileTheExtenderThoughtIsCheckedAgain() throws Exception {
        CountDownLatch thinking = new CountDownLatch(1);
        startWithSlowExtenderAsked("n1", thinking, "1");
        f.cluster.addPod(Pods.pod("filler").node("n1").cpu("4").build());
        // the extender answers once the scheduler has seen n1 fill up, and the loop has left the
        // attempt to wait for the extender (a pod the extender does not handle is bound meanwhile)
        await(
                "the filler counted on n1",
                () -> f.scheduler.cache().node("n1").requested().milliCpu() == 4000);
        f.cluster.addPod(Pods.pod("plain").cpu("100m").build());
        await(
                "the loop went on",
                () -> f.cluster.bindings().stream().anyMatch(b -> b.podKey().equals("default/plain")));
        thinking.countDown();
        // the Event, not the explanation: the pod's retry after its backoff replaces the explanation
        String rechecked = "node n1, chosen while the extenders answered, no longer fits: Insufficient cpu";
        await(
                "the chosen node checked again",
                () -> f.cluster.events().stream().anyMatch(e -> rechecked.equals(e.getMessage())));
        assertTrue(
                f.cluster.bindings().stream().noneMatch(b -> b.podKey().equals("default/gpu")),
                "not bound onto the full node");
    }
}
