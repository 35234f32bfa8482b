package io.hotsched.conformance.runner;

import io.hotsched.api.framework.PluginFactory;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;

/**
 * Runs case files (conformance/README.md's shape) through the plugins of a {@link PluginCatalog}
 * and reports one {@link CaseResult} per case. A file names its plugin; a plugin that is not in
 * the catalog fails every case of the file, and so does a case kind that needs a plugin's own
 * {@link PluginCases} when none was given.
 */
public final class Conformance {

    /** A case file: its name and how to read it. */
    public record CaseFile(String name, Opener opener) {
        @FunctionalInterface
        public interface Opener {
            InputStream open() throws IOException;
        }
    }

    private static final String BUNDLED = "conformance/";

    private final Map<String, PluginFactory> plugins;
    private final Map<String, PluginCases> cases;

    /**
     * @param plugins plugin name to factory, as a {@link PluginCatalog} finds them
     * @param cases the plugins whose cases need checks of their own, by plugin name; the others
     *     go through the framework's extension points only ({@link ConformanceRunner})
     */
    public Conformance(Map<String, PluginFactory> plugins, Map<String, PluginCases> cases) {
        this.plugins = plugins;
        this.cases = cases;
    }

    /** The case files shipped in this jar (kube-scheduler's and Koordinator's cases), listed in its index. */
    public static List<CaseFile> bundled() {
        ClassLoader cl = Conformance.class.getClassLoader();
        List<CaseFile> out = new ArrayList<>();
        try (InputStream in = cl.getResourceAsStream(BUNDLED + "index");
                BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                String name = line.trim();
                if (!name.isEmpty()) {
                    out.add(new CaseFile(name, () -> cl.getResourceAsStream(BUNDLED + name)));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** Every {@code *.json} of {@code dir}, by name. */
    public static List<CaseFile> directory(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IOException(dir + ": not a directory");
        }
        try (Stream<Path> files = Files.list(dir)) {
            List<CaseFile> out = files.filter(p -> p.getFileName().toString().endsWith(".json"))
                    .sorted()
                    .map(p -> new CaseFile(p.getFileName().toString(), () -> Files.newInputStream(p)))
                    .toList();
            if (out.isEmpty()) {
                throw new IOException(dir + ": no *.json case files");
            }
            return out;
        }
    }

    /** The results of every case of {@code file}; a file that cannot be read is one failed result. */
    public List<CaseResult> run(CaseFile file) {
        JsonNode doc;
        try (InputStream in = file.opener().open()) {
            if (in == null) {
                throw new IOException("not found");
            }
            doc = ConformanceRunner.JSON.readTree(in);
        } catch (IOException | RuntimeException e) {
            return List.of(new CaseResult(
                    file.name(), "?", "(file)", "", CaseResult.Outcome.FAIL, "cannot read " + file.name() + ": " + e));
        }
        if (!doc.has("plugin") && doc.has("component")) {
            // framework.json: the scheduler's own vectors, which the core's tests run (FrameworkVectorsTest)
            return List.of(new CaseResult(
                    file.name(),
                    doc.path("component").asText(),
                    "(file)",
                    "",
                    CaseResult.Outcome.NOT_PLUGIN_CASES,
                    "vectors of component \"" + doc.path("component").asText()
                            + "\", not plugin cases: the core's tests check them"));
        }
        String plugin = doc.path("plugin").asText();
        List<CaseResult> out = new ArrayList<>();
        for (JsonNode c : doc.path("cases")) {
            out.add(runCase(file.name(), plugin, c));
        }
        if (out.isEmpty()) {
            out.add(new CaseResult(
                    file.name(), plugin, "(file)", "", CaseResult.Outcome.FAIL, file.name() + " holds no cases"));
        }
        return out;
    }

    private CaseResult runCase(String file, String plugin, JsonNode c) {
        String name = c.path("name").asText();
        String upstream =
                c.path("upstreamTest").asText() + ": " + c.path("upstreamCase").asText();
        PluginFactory factory = plugins.get(plugin);
        if (factory == null) {
            return new CaseResult(
                    file,
                    plugin,
                    name,
                    upstream,
                    CaseResult.Outcome.FAIL,
                    "plugin " + plugin + " is not provided by any bundle on the class path");
        }
        PluginCases own = cases.get(plugin);
        Divergences.Run run = changed -> {
            if (own != null) {
                own.run(factory, plugins, changed);
            } else {
                ConformanceRunner.run(factory, changed);
            }
        };
        try {
            Divergences.Divergence d = Divergences.of(name, factory, c, run);
            if (d != null) {
                d.check().run();
                return new CaseResult(file, plugin, name, upstream, CaseResult.Outcome.DIVERGES, d.why());
            }
            run.run(c);
            return new CaseResult(file, plugin, name, upstream, CaseResult.Outcome.PASS, "");
        } catch (AssertionError e) {
            return new CaseResult(file, plugin, name, upstream, CaseResult.Outcome.FAIL, e.getMessage());
        } catch (Exception | LinkageError e) {
            return new CaseResult(file, plugin, name, upstream, CaseResult.Outcome.FAIL, "threw " + e);
        }
    }
}
