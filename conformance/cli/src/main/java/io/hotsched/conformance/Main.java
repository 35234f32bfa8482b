package io.hotsched.conformance;

import io.hotsched.conformance.runner.CaseResult;
import io.hotsched.conformance.runner.Conformance;
import io.hotsched.conformance.runner.Coverage;
import io.hotsched.conformance.runner.PluginCatalog;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@code bin/hotsched conformance [DIR ...]}: runs the bundled upstream cases, or every
 * {@code *.json} of the given directories, through the plugin bundles on the class path, prints
 * one line per case and a total. Exit code 0 when nothing failed, 1 when a case failed, 2 when
 * the command line or a directory is wrong.
 */
public final class Main {

    static final String USAGE = """
            usage: hotsched conformance [--failures-only] [DIR ...]
              Runs upstream's test cases (as data) through the plugin bundles in deploy/ and reports
              PASS, DIVERGES (a documented difference whose own check passed) or FAIL per case.
              Without DIR: the kube-scheduler cases shipped with hotsched. With DIR: every *.json of
              each DIR, in the shape of conformance/README.md.
              --failures-only  print only failed cases and the total
            Exit code: 0 all passed, 1 a case failed, 2 bad command line.""";

    private Main() {}

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        boolean failuresOnly = false;
        List<Path> dirs = new ArrayList<>();
        for (String a : args) {
            switch (a) {
                case "-h", "--help" -> {
                    out.println(USAGE);
                    return 0;
                }
                case "--failures-only" -> failuresOnly = true;
                default -> {
                    if (a.startsWith("-")) {
                        err.println("hotsched conformance: unknown option " + a);
                        err.println(USAGE);
                        return 2;
                    }
                    dirs.add(Path.of(a));
                }
            }
        }
        List<Conformance.CaseFile> files = new ArrayList<>();
        try {
            if (dirs.isEmpty()) {
                files.addAll(Conformance.bundled());
            }
            for (Path d : dirs) {
                files.addAll(Conformance.directory(d));
            }
        } catch (IOException e) {
            err.println("hotsched conformance: " + e.getMessage());
            return 2;
        }
        PluginCatalog catalog;
        try {
            catalog = PluginCatalog.fromClassPath(Main.class.getClassLoader());
        } catch (IOException e) {
            err.println("hotsched conformance: cannot read the class path: " + e);
            return 1;
        }
        catalog.problems().forEach(p -> err.println("hotsched conformance: " + p));
        Map<String, Set<String>> bundles = new TreeMap<>();
        catalog.sources()
                .forEach((plugin, bundle) ->
                        bundles.computeIfAbsent(bundle, b -> new TreeSet<>()).add(plugin));
        bundles.forEach((bundle, plugins) -> out.println("plugins of " + bundle + ": " + String.join(", ", plugins)));
        Conformance conformance = new Conformance(catalog.factories(), PluginChecks.all());
        int passed = 0;
        int diverged = 0;
        int failed = 0;
        List<CaseResult> all = new ArrayList<>();
        for (Conformance.CaseFile f : files) {
            List<CaseResult> results = conformance.run(f);
            all.addAll(results);
            if (results.get(0).outcome() == CaseResult.Outcome.NOT_PLUGIN_CASES) {
                out.println(f.name() + ": not run here: " + results.get(0).detail());
                continue;
            }
            if (!failuresOnly) {
                out.println(f.name() + " (" + results.get(0).plugin() + ")");
            }
            for (CaseResult r : results) {
                switch (r.outcome()) {
                    case PASS -> passed++;
                    case DIVERGES -> diverged++;
                    case FAIL -> failed++;
                    default -> {}
                }
                if (failuresOnly && !r.failed()) {
                    continue;
                }
                String line = "  " + pad(r.outcome().name()) + " " + (failuresOnly ? f.name() + " " : "") + r.name()
                        + " [" + r.upstream() + "]";
                out.println(
                        r.detail().isEmpty()
                                ? line
                                : line + "\n           " + r.detail().replace("\n", "\n           "));
            }
        }
        out.println("coverage of upstream's test tables, per plugin (conformance/upstream.json):");
        Coverage.bundled().lines(all).forEach(l -> out.println("  " + l));
        out.println((passed + diverged + failed) + " cases: " + passed + " passed, " + diverged
                + " diverge on purpose (checked), " + failed + " failed");
        return failed == 0 ? 0 : 1;
    }

    private static String pad(String s) {
        return String.format("%-8s", s);
    }
}
