package io.hotsched.conformance.runner;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * A plugin module's own run of the bundled cases of its plugins: the plugins are the ones the
 * packaged bundle on the class path declares (so its Declarative Services registration is checked
 * too), and every case of their files must pass or diverge on purpose.
 */
public final class BundleCases {

    /** What was run: the plugins found, and the cases their files hold and that ran. */
    public record Summary(Set<String> plugins, int inFiles, int run, int passed, int diverged) {}

    private BundleCases() {}

    /**
     * Runs the bundled cases of the plugins declared on {@code loader}'s class path, with the
     * plugins' own checks {@code cases}; throws an {@link AssertionError} listing every failed
     * case, or when no plugin or no case was found, or fewer cases ran than the files hold.
     */
    public static Summary check(ClassLoader loader, Map<String, PluginCases> cases) throws IOException {
        PluginCatalog catalog = PluginCatalog.fromClassPath(loader);
        if (!catalog.problems().isEmpty()) {
            throw new AssertionError("plugin components that cannot be created: " + catalog.problems());
        }
        Set<String> plugins = catalog.factories().keySet();
        if (plugins.isEmpty()) {
            throw new AssertionError("no plugin bundle on the class path: the test must run on the packaged jar");
        }
        Conformance conformance = new Conformance(catalog.factories(), cases);
        List<String> failures = new ArrayList<>();
        int inFiles = 0;
        int passed = 0;
        int diverged = 0;
        for (Conformance.CaseFile f : Conformance.bundled()) {
            JsonNode doc = read(f);
            if (!plugins.contains(doc.path("plugin").asText())) {
                continue;
            }
            inFiles += doc.path("cases").size();
            for (CaseResult r : conformance.run(f)) {
                switch (r.outcome()) {
                    case PASS -> passed++;
                    case DIVERGES -> diverged++;
                    default -> failures.add(f.name() + " " + r.name() + " [" + r.upstream() + "]: " + r.detail());
                }
            }
        }
        int run = passed + diverged + failures.size();
        if (!failures.isEmpty()) {
            throw new AssertionError(failures.size() + " of " + run + " cases failed:\n" + String.join("\n", failures));
        }
        if (inFiles == 0 || run < inFiles) {
            throw new AssertionError(
                    "the case files of " + plugins + " hold " + inFiles + " cases, and " + run + " ran");
        }
        return new Summary(plugins, inFiles, run, passed, diverged);
    }

    private static JsonNode read(Conformance.CaseFile f) throws IOException {
        try (InputStream in = f.opener().open()) {
            return ConformanceRunner.JSON.readTree(in);
        }
    }
}
