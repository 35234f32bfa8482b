package io.hotsched.conformance.runner;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * How much of upstream's test tables the case data covers, per plugin: the table cases upstream's
 * test files hold at the pinned tag (as {@code conformance/upstream/count-cases.py} counted them into
 * {@code conformance/upstream.json}), how many of them a data case expresses (same test function and
 * case name), and how those ran.
 */
public final class Coverage {

    /** One plugin's coverage; {@code upstream} counts only the files counted, of {@code files}. */
    public record Line(
            String plugin,
            String source,
            int files,
            int filesCounted,
            int upstream,
            int expressed,
            int passing,
            int diverging,
            int outside) {

        @Override
        public String toString() {
            if (source == null) {
                return plugin + ": no upstream test files in the manifest; " + outside + " data cases";
            }
            if (filesCounted == 0) {
                return plugin + " (" + source + "): upstream's " + files + " test files not counted yet "
                        + "(conformance/upstream/count-cases.py count on a checkout); " + outside + " data cases";
            }
            String counted = filesCounted == files
                    ? upstream + " upstream table cases"
                    : upstream + " upstream table cases in the " + filesCounted + " of " + files
                            + " test files counted (count-cases.py count on a checkout counts the rest)";
            return plugin + " (" + source + "): " + counted + ", " + expressed + " expressed as data: " + passing
                    + " pass, " + diverging + " diverge, " + (expressed - passing - diverging) + " fail; "
                    + outside + " data cases match no counted upstream table case";
        }
    }

    private static final String BUNDLED = "conformance/upstream.json";
    private static final Pattern TEST_FUNCTION = Pattern.compile("\\bTest\\w+");

    private final JsonNode manifest;

    public Coverage(JsonNode manifest) {
        this.manifest = manifest;
    }

    /** The manifest shipped in this jar. */
    public static Coverage bundled() {
        try (InputStream in = Coverage.class.getClassLoader().getResourceAsStream(BUNDLED)) {
            if (in == null) {
                throw new IOException(BUNDLED + " is not on the class path");
            }
            return new Coverage(ConformanceRunner.JSON.readTree(in));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The coverage of every plugin the manifest names or {@code results} ran, manifest order first. */
    public List<Line> lines(List<CaseResult> results) {
        Map<String, List<CaseResult>> byPlugin = new LinkedHashMap<>();
        manifest.path("plugins").propertyNames().forEach(p -> byPlugin.put(p, new ArrayList<>()));
        for (CaseResult r : results) {
            if (r.outcome() != CaseResult.Outcome.NOT_PLUGIN_CASES) {
                byPlugin.computeIfAbsent(r.plugin(), p -> new ArrayList<>()).add(r);
            }
        }
        List<Line> out = new ArrayList<>();
        byPlugin.forEach((plugin, ran) -> out.add(line(plugin, ran)));
        return out;
    }

    private Line line(String plugin, List<CaseResult> ran) {
        JsonNode entry = manifest.path("plugins").path(plugin);
        if (entry.isMissingNode()) {
            return new Line(plugin, null, 0, 0, 0, 0, 0, 0, ran.size());
        }
        JsonNode source = manifest.path("sources").path(entry.path("source").asText());
        Map<String, Integer> upstream = new HashMap<>();
        int files = 0;
        int counted = 0;
        for (JsonNode file : entry.path("files")) {
            files++;
            JsonNode tests = file.path("tests");
            if (!tests.isObject()) {
                continue;
            }
            counted++;
            tests.properties()
                    .forEach(t -> t.getValue()
                            .forEach(name -> upstream.merge(key(t.getKey(), name.asText()), 1, Integer::sum)));
        }
        Map<String, List<CaseResult.Outcome>> outcomes = new HashMap<>();
        int outside = 0;
        for (CaseResult r : ran) {
            String k = key(r);
            if (k != null && upstream.containsKey(k)) {
                outcomes.computeIfAbsent(k, x -> new ArrayList<>()).add(r.outcome());
            } else {
                outside++;
            }
        }
        int expressed = 0;
        int passing = 0;
        int diverging = 0;
        for (Map.Entry<String, List<CaseResult.Outcome>> e : outcomes.entrySet()) {
            int n = upstream.get(e.getKey());
            expressed += n;
            if (e.getValue().contains(CaseResult.Outcome.FAIL)) {
                continue;
            }
            if (e.getValue().contains(CaseResult.Outcome.DIVERGES)) {
                diverging += n;
            } else {
                passing += n;
            }
        }
        int total = upstream.values().stream().mapToInt(Integer::intValue).sum();
        return new Line(
                plugin,
                source.path("repo").asText() + " " + source.path("tag").asText(),
                files,
                counted,
                total,
                expressed,
                passing,
                diverging,
                outside);
    }

    /**
     * The upstream test function and case a result names: its {@code upstreamTest} may carry the file
     * and a variant ({@code binder_test.go TestCapacity/CSIDriver.StorageCapacity=false}).
     */
    private static String key(CaseResult r) {
        int sep = r.upstream().indexOf(": ");
        if (sep < 0) {
            return null;
        }
        Matcher m = TEST_FUNCTION.matcher(r.upstream().substring(0, sep));
        return m.find() ? key(m.group(), r.upstream().substring(sep + 2)) : null;
    }

    private static String key(String test, String name) {
        return test + "\u0000" + name;
    }
}
