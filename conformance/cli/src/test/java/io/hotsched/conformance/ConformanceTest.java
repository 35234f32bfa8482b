package io.hotsched.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.hotsched.conformance.runner.CaseResult;
import io.hotsched.conformance.runner.Conformance;
import io.hotsched.conformance.runner.PluginCatalog;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Upstream's test cases as data, one dynamic test per case named after the case and the upstream
 * test, through the plugin bundles on the test class path with every plugin module's own checks. Runs
 * the bundled case files, or every {@code *.json} of {@code -Dconformance.dir=DIR}.
 */
class ConformanceTest {

    @TestFactory
    Stream<DynamicNode> upstreamCases() throws IOException {
        PluginCatalog catalog = PluginCatalog.fromClassPath(getClass().getClassLoader());
        assertEquals(List.of(), catalog.problems(), "every plugin component on the class path can be created");
        if (catalog.factories().isEmpty()) {
            fail(
                    "no plugin bundle on the class path: run through `mvn verify` (the bundles' manifests are made when they are packaged)");
        }
        String dir = System.getProperty("conformance.dir");
        List<Conformance.CaseFile> files =
                dir != null && !dir.isBlank() ? Conformance.directory(Path.of(dir)) : Conformance.bundled();
        Conformance conformance = new Conformance(catalog.factories(), PluginChecks.all());
        List<DynamicNode> nodes = new ArrayList<>();
        for (Conformance.CaseFile f : files) {
            List<DynamicTest> tests = new ArrayList<>();
            for (CaseResult r : conformance.run(f)) {
                if (r.outcome() == CaseResult.Outcome.NOT_PLUGIN_CASES) {
                    continue;
                }
                tests.add(DynamicTest.dynamicTest(r.name() + " [" + r.upstream() + "]", () -> {
                    if (r.failed()) {
                        fail(r.detail());
                    }
                }));
            }
            nodes.add(DynamicContainer.dynamicContainer(f.name(), tests));
        }
        return nodes.stream();
    }
}
