package io.hotsched.core.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotsched.api.framework.Code;
import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.NodeInfo;
import io.hotsched.api.framework.NodeScores;
import io.hotsched.api.framework.Status;
import io.hotsched.core.registry.PluginRegistry;
import io.hotsched.core.support.SchedulerFixture;
import io.hotsched.testing.Nodes;
import io.hotsched.testing.Pods;
import io.hotsched.testing.SimplePlugins;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Upstream's framework-level expectations (framework.json): node sampling, host selection, FitError text. */
class FrameworkVectorsTest {

    private static final JsonNode DATA = load();

    private static JsonNode load() {
        try (InputStream in = FrameworkVectorsTest.class.getResourceAsStream("/conformance/framework.json")) {
            return JsonMapper.builder().build().readTree(in);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void numFeasibleNodesToFind() {
        int n = 0;
        for (JsonNode c : DATA.get("numFeasibleNodesToFind").get("cases")) {
            assertEquals(
                    c.get("want").asInt(),
                    SchedulingAlgorithm.numFeasibleNodesToFind(
                            c.get("percentage").asInt(), c.get("numAllNodes").asInt()),
                    c.get("name").asText());
            n++;
        }
        assertEquals(6, n);
    }

    @Test
    void fitErrorMessages() {
        int n = 0;
        for (JsonNode c : DATA.get("fitErrorMessage").get("cases")) {
            Map<String, Status> statuses = new HashMap<>();
            c.get("nodeStatuses").properties().forEach(e -> {
                Code code = Code.valueOf(e.getValue()
                        .get(0)
                        .asText()
                        .replaceAll("([a-z])([A-Z])", "$1_$2")
                        .toUpperCase());
                List<String> reasons = new ArrayList<>();
                for (int i = 1; i < e.getValue().size(); i++) {
                    reasons.add(e.getValue().get(i).asText());
                }
                statuses.put(e.getKey(), Status.of(code, reasons.toArray(String[]::new)));
            });
            Diagnosis d = new Diagnosis(
                    statuses,
                    null,
                    c.has("preFilterMsg") ? c.get("preFilterMsg").asText() : "");
            if (c.has("postFilterMsg")) {
                d.setPostFilterMsg(c.get("postFilterMsg").asText());
            }
            assertEquals(
                    c.get("want").asText(),
                    FitError.message(c.get("numAllNodes").asInt(), d),
                    c.get("name").asText());
            n++;
        }
        assertTrue(n >= 8, "cases: " + n);
    }

    @Test
    void selectHostPicksAmongTheBestUniformly() throws Exception {
        SchedulingAlgorithm alg = new SchedulingAlgorithm(new ParallelizerImpl(1, "t"), new Random(7));
        for (JsonNode c : DATA.get("selectHost").get("cases")) {
            Map<String, Long> list = new LinkedHashMap<>();
            JsonNode l = c.get("list");
            if (l.isArray()) {
                l.forEach(pair -> list.put(pair.get(0).asText(), pair.get(1).asLong()));
            } else {
                l.properties().forEach(e -> list.put(e.getKey(), e.getValue().asLong()));
            }
            ScoreTable t = table(list);
            if (c.has("expectsError") && c.get("expectsError").asBoolean()) {
                assertThrows(
                        SchedulingException.class,
                        () -> alg.selectHost(t),
                        c.get("name").asText());
                continue;
            }
            Set<String> possible = new HashSet<>();
            c.get("possibleHosts").forEach(h -> possible.add(h.asText()));
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < 200; i++) {
                String h = alg.selectHost(t);
                assertTrue(possible.contains(h), c.get("name").asText() + ": " + h);
                seen.add(h);
            }
            assertEquals(
                    possible,
                    seen,
                    "every tied host gets picked: " + c.get("name").asText());
        }
    }

    private static ScoreTable table(Map<String, Long> totals) {
        List<NodeInfo> nodes = new ArrayList<>();
        totals.keySet().forEach(n -> nodes.add(Nodes.node(n).info()));
        NodeScores s = new NodeScores(nodes);
        int i = 0;
        for (long v : totals.values()) {
            s.set(i++, v);
        }
        ScoreTable t = new ScoreTable();
        t.fill(nodes, List.of("p"), new NodeScores[] {s}, new int[] {1});
        return t;
    }

    @Test
    void fairEvaluationRotatesTheStartIndex() throws Exception {
        JsonNode fair = DATA.get("numFeasibleNodesToFind").get("fairEvaluation");
        int numNodes = fair.get("numAllNodes").asInt();
        int pct = fair.get("percentage").asInt();
        int toFind = fair.get("nodesToFind").asInt();
        PluginRegistry registry =
                TestFrameworks.registry(TestFrameworks.plugin("NodeResourcesFit", h -> new SimplePlugins.CpuFit()));
        String yaml = SchedulerFixture.HEADER.replace("profiles:", "percentageOfNodesToScore: " + pct + "\nprofiles:")
                + "- plugins:\n    multiPoint:\n      enabled:\n      - name: PrioritySort\n      - name: NodeResourcesFit\n"
                + "      - name: DefaultBinder\n      disabled:\n      - name: \"*\"\n";
        ParallelizerImpl par = new ParallelizerImpl(4, "t");
        List<NodeInfo> nodes = new ArrayList<>();
        for (int i = 0; i < numNodes; i++) {
            nodes.add(Nodes.node(String.format("node-%03d", i)).cpu("8").info());
        }
        Snapshot snapshot = new Snapshot(nodes);
        FrameworkImpl fw = TestFrameworks.build(yaml, registry, TestFrameworks.services(par, () -> snapshot));
        SchedulingAlgorithm alg = new SchedulingAlgorithm(par, new Random(1));
        for (int i = 0; i < 10; i++) {
            ScheduleResult r = alg.schedule(
                    fw, new CycleState(), Pods.pod("p" + i).cpu("1").info(), snapshot);
            assertEquals(toFind, r.feasibleNodes(), "cycle " + i);
            assertEquals((i + 1) * toFind % numNodes, alg.nextStartNodeIndex(), "cycle " + i);
        }
        par.close();
    }
}
