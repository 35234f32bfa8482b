package io.hotsched.bench.perf;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The scheduler under test: the distribution itself (Felix, the shipped bundles, the Kubernetes
 * bundle), started as {@code bin/hotsched --kubeconfig} in its own JVM on a copy of the
 * distribution whose client write limit is lifted to scheduler_perf's (QPS = burst = 5000), with
 * the default KubeSchedulerConfiguration as upstream's harness runs it.
 */
final class SchedulerProcess implements AutoCloseable {

    static final String DEFAULT_CONFIG =
            "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n";

    private final Process process;
    final Path log;
    private final int metricsPort;
    private final HttpClient http = HttpClient.newHttpClient();

    private SchedulerProcess(Process process, Path log, int metricsPort) {
        this.process = process;
        this.log = log;
        this.metricsPort = metricsPort;
    }

    /** @param extraConfig appended to the default KubeSchedulerConfiguration (e.g. {@code parallelism: 2}) */
    static SchedulerProcess start(Path dist, Path work, String kubeconfig, String jvmOptions, String extraConfig)
            throws IOException, InterruptedException {
        Path home = work.resolve("hotsched");
        copy(dist, home);
        Path kubeCfg = home.resolve("etc/io.hotsched.kube.cfg");
        List<String> lines = Files.readAllLines(kubeCfg).stream()
                .map(l -> l.startsWith("qps") ? "qps = 5000" : l.startsWith("burst") ? "burst = 5000" : l)
                .toList();
        Files.write(kubeCfg, lines);
        int metricsPort = freePort();
        Path schedCfg = home.resolve("etc/io.hotsched.scheduler.cfg");
        Files.write(
                schedCfg,
                Files.readAllLines(schedCfg).stream()
                        .map(l -> l.startsWith("metricsAddress") ? "metricsAddress = 127.0.0.1:" + metricsPort : l)
                        .toList());
        Path config = work.resolve("scheduler.yaml");
        Files.writeString(config, DEFAULT_CONFIG + extraConfig);
        Path kc = work.resolve("kubeconfig");
        Files.writeString(kc, kubeconfig);
        Path log = work.resolve("scheduler.log");
        ProcessBuilder pb = new ProcessBuilder(
                        home.resolve("bin/hotsched").toString(),
                        "--kubeconfig",
                        kc.toString(),
                        "--config",
                        config.toString(),
                        "--no-shell")
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        pb.environment().put("HOTSCHED_OPTS", jvmOptions);
        SchedulerProcess p = new SchedulerProcess(pb.start(), log, metricsPort);
        p.awaitLine("Scheduling started", 180);
        // the plugin bundles in deploy/ arrive after the core: measure once every profile is built
        p.awaitReady(60);
        return p;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    void awaitReady(int seconds) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        String why = "no answer";
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<String> r = get("/readyz", 5);
                if (r.statusCode() == 200) {
                    return;
                }
                why = r.body();
            } catch (IOException e) {
                why = e.toString();
            }
            Thread.sleep(100);
        }
        throw new IOException(
                "the scheduler was not ready within " + seconds + " s (/readyz: " + why + "); see " + log);
    }

    /** The scheduler's /metrics page, or null when it cannot be read. */
    String metrics() {
        try {
            HttpResponse<String> r = get("/metrics", 30);
            return r.statusCode() == 200 ? r.body() : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** GET {@code path} on the scheduler's metrics address. */
    private HttpResponse<String> get(String path, int timeoutSeconds) throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + path))
                        .timeout(Duration.ofSeconds(timeoutSeconds))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Path rel = from.relativize(p);
                if (rel.startsWith("data")) {
                    continue;
                }
                Path target = to.resolve(rel.toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    void awaitLine(String text, int seconds) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            if (Files.exists(log) && Files.readString(log).contains(text)) {
                return;
            }
            if (!process.isAlive()) {
                throw new IOException("the scheduler exited with " + process.exitValue() + "; see " + log);
            }
            Thread.sleep(200);
        }
        throw new IOException("the scheduler did not log \"" + text + "\" within " + seconds + " s; see " + log);
    }

    /** CPU time the scheduler JVM has used so far, in seconds, or -1 when unknown. */
    double cpuSeconds() {
        return process.toHandle()
                .info()
                .totalCpuDuration()
                .map(d -> d.toMillis() / 1000.0)
                .orElse(-1.0);
    }

    long pid() {
        return process.pid();
    }

    /** The scheduler JVM's peak resident memory in MiB (Linux), or -1. */
    long peakRssMiB() {
        try {
            for (String l : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
                if (l.startsWith("VmHWM:")) {
                    return Long.parseLong(l.replaceAll("[^0-9]", "")) / 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /** The scheduler JVM's heap in use after a full GC (its live set), in MiB, through jcmd; -1 when unknown. */
    long liveHeapMiB() {
        String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        try {
            run(jcmd, Long.toString(process.pid()), "GC.run");
            String info = run(jcmd, Long.toString(process.pid()), "GC.heap_info");
            Matcher m = Pattern.compile("used (\\d+)K").matcher(info);
            return m.find() ? Long.parseLong(m.group(1)) / 1024 : -1;
        } catch (IOException | InterruptedException e) {
            return -1;
        }
    }

    private static String run(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        return out;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
