package io.hotsched.plugins.defaults;

import static org.junit.jupiter.api.Assertions.fail;

import io.hotsched.api.framework.PluginFactory;
import io.hotsched.plugins.defaults.defaultbinder.DefaultBinder;
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

/**
 * Upstream's test cases as data (see conformance/README.md), one dynamic test per case, named
 * after the case and the upstream test. Runs this bundle's copy of the cases, or every
 * {@code *.json} of {@code -Dconformance.dir=DIR}.
 */
class ConformanceTest {

    /** The plugins this bundle ships, by the name the case files use. */
    static final Map<String, PluginFactory> PLUGINS = Map.of(
            NodeName.NAME, new NodeName(),
            NodeAffinity.NAME, new NodeAffinity(),
            NodePorts.NAME, new NodePorts(),
            NodeUnschedulable.NAME, new NodeUnschedulable(),
            TaintToleration.NAME, new TaintToleration(),
            PrioritySort.NAME, new PrioritySort(),
            DefaultBinder.NAME, new DefaultBinder());

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
                ConformanceRunner.run(factory, c);
            }));
        }
        return DynamicContainer.dynamicContainer(f.getFileName() + " (" + plugin + ")", tests);
    }
}
