package io.hotsched.bench.perf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * scheduler_perf's workloads against hotsched: for each chosen workload, a fresh embedded API
 * server in this JVM and the distribution's scheduler in its own, connected over HTTP as a user
 * runs it; reports SchedulingThroughput as upstream does, as DataItems JSON and a Markdown row.
 *
 * <pre>
 * mvn -B install -DskipTests
 * java -cp bench/target/benchmarks.jar io.hotsched.bench.perf.PerfMain --quick
 * java -cp bench/target/benchmarks.jar io.hotsched.bench.perf.PerfMain --workload 'SchedulingBasic/5000Nodes_10000Pods'
 * </pre>
 *
 * Options: {@code --list}; {@code --quick} (the 500-node workloads); {@code --workload REGEX}
 * (matched against {@code Case/Workload}); {@code --dist DIR} (default
 * {@code distribution/target/hotsched-0.1.0-SNAPSHOT}); {@code --out DIR} (default
 * {@code bench/target/perf}); {@code --docs FILE} (append the Markdown rows, e.g.
 * {@code docs/benchmarks.md}); {@code --scheduler-opts "..."} (the scheduler JVM's options);
 * {@code --parallelism N} (the configuration's {@code parallelism}; default upstream's 16);
 * {@code --in-process} (the core and the default plugins in this JVM with an in-memory cluster:
 * the scheduler's own ceiling, without the API path); {@code --no-op-scheduler} (binds each pod to
 * the next node over HTTP without deciding: the API path's own ceiling); {@code --swap-every S}
 * (the plugin-swap workload: the default plugins' bundle upgraded in place every S seconds;
 * with {@code --side-by-side}, each new version is added as a file of its own and the old one
 * removed half a period later); {@code --shadow PLUGIN} with {@code --in-process} (a second
 * registration of that default plugin, version 2.0.0, runs in shadow for every pod: the cost of a
 * shadow at {@code --shadow-cpu-share N}, default 25, percent of the loop's CPU time);
 * {@code --runner-opts "..."} (this JVM's options, in place of {@link #RUNNER_OPTS}: it runs
 * itself again with them). With {@code --quick}, the scheduler JVM gets
 * {@link #QUICK_SCHEDULER_OPTS} unless {@code --scheduler-opts} is given.
 */
public final class PerfMain {

    private PerfMain() {}

    record Row(String name, PerfCases.Workload workload, Runner.Measured measured, long liveHeapMiB, long peakRssMiB) {}

    /**
     * The runner JVM's options, unless {@code --runner-opts} gives others: C1 only, because the API
     * server and the harness are broad code (JSON, HTTP) that C2 would spend a third of a short run's
     * CPU compiling, on the cores the scheduler is measured on; and a common pool of 2, without
     * which the JDK HTTP client starts a thread per request on 2 cores.
     */
    static final String RUNNER_OPTS =
            "-XX:TieredStopAtLevel=1 -Djava.util.concurrent.ForkJoinPool.common.parallelism=2";

    /** With {@code --in-process} the scheduler runs in the runner's JVM, with the JVM options {@code bin/hotsched} gives it. */
    static final String IN_PROCESS_OPTS = "-Djava.util.concurrent.ForkJoinPool.common.parallelism=2";

    private static final String CHILD = "hotsched.perf.runner";

    /**
     * The scheduler JVM's options with {@code --quick} unless {@code --scheduler-opts} gives others:
     * C1 only. The 500-node workloads last a few seconds each, which a fresh JVM's C2 would spend
     * compiling; the 5000-node workloads keep the product's options.
     */
    static final String QUICK_SCHEDULER_OPTS = "-XX:TieredStopAtLevel=1";

    public static void main(String[] args) throws Exception {
        if (System.getProperty(CHILD) == null) {
            System.exit(relaunch(args));
        }
        Map<String, String> o = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--quick")
                    || a.equals("--list")
                    || a.equals("--in-process")
                    || a.equals("--no-op-scheduler")
                    || a.equals("--side-by-side")) {
                o.put(a.substring(2), "true");
            } else if (a.startsWith("--") && i + 1 < args.length) {
                o.put(a.substring(2), args[++i]);
            } else {
                System.err.println("unknown argument " + a + "; see the class javadoc");
                System.exit(2);
            }
        }
        List<PerfCases.Case> cases = PerfCases.load();
        Pattern filter = Pattern.compile(o.getOrDefault("workload", o.containsKey("quick") ? ".*/500Nodes.*" : ".*"));
        List<Object[]> chosen = new ArrayList<>();
        for (PerfCases.Case c : cases) {
            for (PerfCases.Workload w : c.workloads()) {
                if (filter.matcher(c.name() + "/" + w.name()).matches()) {
                    chosen.add(new Object[] {c, w});
                }
            }
        }
        if (o.containsKey("list") || chosen.isEmpty()) {
            for (PerfCases.Case c : cases) {
                for (PerfCases.Workload w : c.workloads()) {
                    System.out.printf(
                            "%s/%s %s%s%n",
                            c.name(), w.name(), w.params(), w.threshold() > 0 ? " floor " + (int) w.threshold() : "");
                }
            }
            if (chosen.isEmpty()) {
                System.err.println("no workload matches " + filter);
                System.exit(2);
            }
            return;
        }
        Path dist = Path.of(o.getOrDefault("dist", "distribution/target/hotsched-0.1.0-SNAPSHOT"));
        boolean inProcess = o.containsKey("in-process");
        boolean noop = o.containsKey("no-op-scheduler");
        if (!inProcess && !noop && !Files.isExecutable(dist.resolve("bin/hotsched"))) {
            System.err.println(
                    "no distribution at " + dist + " (build it with mvn -B install -DskipTests, or give --dist)");
            System.exit(2);
        }
        Path out = Path.of(o.getOrDefault("out", "bench/target/perf"));
        Files.createDirectories(out);
        // --quick is the smoke run: its workloads last seconds, which C2 would spend compiling
        String schedulerOpts =
                o.getOrDefault("scheduler-opts", o.containsKey("quick") && !inProcess ? QUICK_SCHEDULER_OPTS : "");
        String machine = Runtime.getRuntime().availableProcessors() + " cores, JVM " + Runtime.version()
                + ", runner JVM options \"" + System.getProperty(CHILD) + "\""
                + (inProcess || noop ? "" : ", scheduler JVM options \"" + schedulerOpts + "\"");
        System.out.println("hotsched scheduler_perf runner: " + chosen.size() + " workload(s); " + machine
                + (inProcess
                        ? "; the scheduler in-process, no HTTP"
                        : noop ? "; a no-op scheduler binding over HTTP" : "; the distribution over HTTP"));
        Progress progress = new Progress(System.out);
        List<Row> rows = new ArrayList<>();
        for (Object[] cw : chosen) {
            PerfCases.Case c = (PerfCases.Case) cw[0];
            PerfCases.Workload w = (PerfCases.Workload) cw[1];
            String name = c.name() + "/" + w.name();
            progress.workload(name);
            String extra =
                    o.containsKey("parallelism") ? "parallelism: " + Integer.parseInt(o.get("parallelism")) + "\n" : "";
            long swapMillis = o.containsKey("swap-every") ? (long) (Double.parseDouble(o.get("swap-every")) * 1000) : 0;
            boolean sideBySide = o.containsKey("side-by-side");
            InProcessTarget.ShadowRun shadow = o.containsKey("shadow")
                    ? new InProcessTarget.ShadowRun(
                            o.get("shadow"), Integer.parseInt(o.getOrDefault("shadow-cpu-share", "25")))
                    : null;
            if (shadow != null && !inProcess) {
                throw new IllegalArgumentException("--shadow needs --in-process");
            }
            rows.add(runOne(
                    c,
                    w,
                    name,
                    dist,
                    out,
                    schedulerOpts,
                    extra,
                    inProcess ? "in-process" : noop ? "noop" : "api",
                    swapMillis,
                    sideBySide,
                    shadow,
                    progress));
            Row r = rows.get(rows.size() - 1);
            System.out.println("   " + markdown(r));
        }
        writeJson(out, rows);
        String table = table(
                rows,
                machine,
                inProcess
                        ? "the scheduler in-process, fed without HTTP (CPU columns: the whole JVM)"
                        : noop
                                ? "a no-op scheduler binding each pod in turn over HTTP (the API path's ceiling; scheduler columns empty)"
                                : "the scheduler in its own JVM (bin/hotsched --kubeconfig), the embedded API server in the runner's");
        String durations = durations(rows);
        System.out.println(table);
        System.out.println(durations);
        if (o.containsKey("docs")) {
            Files.writeString(Path.of(o.get("docs")), "\n" + table + durations, StandardOpenOption.APPEND);
        }
    }

    /** Runs this class again in a JVM with the runner's options; its exit code. */
    private static int relaunch(String[] args) throws IOException, InterruptedException {
        String opts = List.of(args).contains("--in-process") ? IN_PROCESS_OPTS : RUNNER_OPTS;
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--runner-opts") && i + 1 < args.length) {
                opts = args[++i];
            } else {
                rest.add(args[i]);
            }
        }
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String opt : opts.trim().split("\\s+")) {
            if (!opt.isEmpty()) {
                cmd.add(opt);
            }
        }
        cmd.add("-D" + CHILD + "=" + opts);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(PerfMain.class.getName());
        cmd.addAll(rest);
        return new ProcessBuilder(cmd).inheritIO().start().waitFor();
    }

    private static Row runOne(
            PerfCases.Case c,
            PerfCases.Workload w,
            String name,
            Path dist,
            Path out,
            String opts,
            String extraConfig,
            String mode,
            long swapMillis,
            boolean sideBySide,
            InProcessTarget.ShadowRun shadow,
            Progress progress)
            throws Exception {
        Path work = Files.createTempDirectory("hotsched-perf-");
        long t0 = System.nanoTime();
        long[] marks = new long[3];
        try (Target target = switch (mode) {
                    case "in-process" -> new InProcessTarget(extraConfig, shadow);
                    case "noop" -> new NoopSchedulerTarget();
                    default -> new ApiTarget(dist, work, opts, extraConfig);
                };
                Runner runner = new Runner(target, progress)) {
            if (swapMillis > 0) {
                if (!(target instanceof ApiTarget api)) {
                    throw new IllegalArgumentException("--swap-every needs the distribution over HTTP");
                }
                api.swapDefaultPluginsEvery(swapMillis, sideBySide);
            }
            try {
                marks[0] = System.nanoTime();
                Runner.Measured m = runner.run(c, w);
                marks[1] = System.nanoTime();
                if (target instanceof ApiTarget api && swapMillis > 0) {
                    progress.note("bundle swaps during the workload: " + api.swaps());
                }
                if (target instanceof InProcessTarget in && shadow != null) {
                    progress.note(in.shadowFigures());
                }
                Row row = new Row(
                        swapMillis > 0
                                ? name + " (swap every " + swapMillis / 1000.0 + " s"
                                        + (sideBySide ? ", side by side)" : ")")
                                : shadow != null
                                        ? name + " (" + shadow.plugin() + " in shadow, " + shadow.cpuSharePercent()
                                                + "% CPU share)"
                                        : name,
                        w,
                        m,
                        target.liveHeapMiB(),
                        target.peakRssMiB());
                marks[2] = System.nanoTime();
                return row;
            } finally {
                if (target instanceof ApiTarget api) {
                    Files.copy(
                            api.schedulerLog(),
                            out.resolve(name.replace('/', '_') + ".scheduler.log"),
                            StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } finally {
            long end = System.nanoTime();
            if (marks[2] != 0) {
                progress.note(String.format(
                        "start %.1f s, workload %.1f s, heap %.1f s, stop %.1f s",
                        (marks[0] - t0) / 1e9,
                        (marks[1] - marks[0]) / 1e9,
                        (marks[2] - marks[1]) / 1e9,
                        (end - marks[2]) / 1e9));
            }
        }
    }

    private static void writeJson(Path out, List<Row> rows) throws IOException {
        List<Map<String, Object>> items = new ArrayList<>();
        for (Row r : rows) {
            String name = r.name() + "/" + r.measured().namespace();
            Throughput.Summary s = r.measured().throughput();
            if (s.samples() > 0) {
                Map<String, Object> labels = new LinkedHashMap<>();
                labels.put("Metric", "SchedulingThroughput");
                labels.put("Name", name);
                labels.put("extension_point", "not applicable");
                labels.put("plugin", "not applicable");
                labels.put("result", "not applicable");
                items.add(dataItem(labels, "pods/s", s.average(), s.perc50(), s.perc90(), s.perc95(), s.perc99()));
            }
            for (Histograms.Item h : r.measured().durations()) {
                Map<String, Object> labels = new LinkedHashMap<>();
                labels.put("Metric", h.metric());
                labels.put("Name", name);
                labels.putAll(h.labels());
                items.add(dataItem(labels, "ms", h.average(), h.p50(), h.p90(), h.p95(), h.p99()));
            }
        }
        String stamp = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString().replace(':', '-');
        Path file = out.resolve("BenchmarkPerfScheduling_benchmark_" + stamp + ".json");
        JsonMapper.builder()
                .enable(SerializationFeature.INDENT_OUTPUT)
                .build()
                .writeValue(file.toFile(), Map.of("version", "v1", "dataItems", items));
        System.out.println("DataItems: " + file);
    }

    /** One of scheduler_perf's DataItems: Average and Perc50/90/95/99 in {@code unit}. */
    private static Map<String, Object> dataItem(
            Map<String, Object> labels, String unit, double average, double p50, double p90, double p95, double p99) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("Average", average);
        data.put("Perc50", p50);
        data.put("Perc90", p90);
        data.put("Perc95", p95);
        data.put("Perc99", p99);
        return Map.of("data", data, "unit", unit, "labels", labels);
    }

    private static String markdown(Row r) {
        Throughput.Summary s = r.measured().throughput();
        String floor = r.workload().threshold() > 0
                ? Integer.toString((int) r.workload().threshold())
                : "—";
        // scheduler_perf skips the first non-zero sample: a phase over within about 2 s leaves none
        String rates = s.samples() == 0
                ? "— (done before a second sample) | — | — | — | —"
                : String.format(
                        "%.0f | %.0f | %.0f | %.0f | %.0f",
                        s.average(), s.perc50(), s.perc90(), s.perc95(), s.perc99());
        return String.format(
                "| %s | %s | %s | %s | %.1f | %.1f | %.2f | %.1f | %d | %d |",
                r.name(),
                r.workload().params(),
                rates,
                floor,
                r.measured().seconds(),
                r.measured().schedulerCpu(),
                // the figure that carries across machines better than pods/s
                r.measured().schedulerCpu() * 1000 / r.measured().pods(),
                r.measured().runnerCpu(),
                r.liveHeapMiB(),
                r.peakRssMiB());
    }

    /** The measured phase's duration histograms per workload, as scheduler_perf reports them (ms). */
    private static String durations(List<Row> rows) {
        StringBuilder b = new StringBuilder();
        for (Row r : rows) {
            Runner.Measured m = r.measured();
            if (!m.schedulerThreads().isEmpty() || !m.runnerThreads().isEmpty()) {
                b.append("\nCPU seconds by thread in the measured phase of ")
                        .append(r.name())
                        .append(":\n");
                if (!m.schedulerThreads().isEmpty()) {
                    b.append("- scheduler JVM: ")
                            .append(ThreadCpu.describe(m.schedulerThreads()))
                            .append('\n');
                }
                b.append("- runner JVM: ")
                        .append(ThreadCpu.describe(m.runnerThreads()))
                        .append('\n');
            }
            if (r.measured().durations().isEmpty()) {
                continue;
            }
            b.append("\nDurations in the measured phase of ")
                    .append(r.name())
                    .append(", ms (plugins: the 10 % of attempts sampled, as upstream):\n\n");
            b.append(
                    "| histogram | labels | count | average | p50 | p90 | p95 | p99 |\n|---|---|---:|---:|---:|---:|---:|---:|\n");
            for (Histograms.Item h : r.measured().durations()) {
                String metric = h.metric().replace("scheduler_", "").replace("_duration_seconds", "");
                b.append(String.format(
                        "| %s | %s | %d | %.3f | %.3f | %.3f | %.3f | %.3f |%n",
                        metric,
                        String.join(", ", h.labels().values()),
                        h.count(),
                        h.average(),
                        h.p50(),
                        h.p90(),
                        h.p95(),
                        h.p99()));
            }
        }
        return b.toString();
    }

    private static String table(List<Row> rows, String machine, String how) {
        StringBuilder b = new StringBuilder(
                "Run " + Instant.now().truncatedTo(ChronoUnit.MINUTES) + " on " + machine + "; " + how + ".\n\n");
        b.append(
                "| workload | params | average pods/s | p50 | p90 | p95 | p99 | upstream floor | measured phase s | scheduler CPU s "
                        + "| scheduler CPU ms per pod | runner CPU s (API server + client) | scheduler live heap MiB "
                        + "| scheduler peak RSS MiB |\n");
        b.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Row r : rows) {
            b.append(markdown(r)).append('\n');
        }
        return b.toString();
    }
}
