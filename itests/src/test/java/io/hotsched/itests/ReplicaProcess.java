package io.hotsched.itests;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Another hotsched replica: the built distribution's {@code bin/hotsched} as a process of its own,
 * from a copy of the distribution, connected to the same API server. Its profile has a scheduler
 * name no test pod uses, so it never competes for the test's pods. Ended (SIGTERM, then by force)
 * when closed.
 */
final class ReplicaProcess implements AutoCloseable {

    private static final long WAIT_SECONDS = 60;

    private final Process process;
    private final List<String> lines = new ArrayList<>();

    private ReplicaProcess(Process process) {
        this.process = process;
        Thread reader = new Thread(this::read, "replica-output");
        reader.setDaemon(true);
        reader.start();
    }

    /** @param deliveryCfg the content of its etc/io.hotsched.delivery.cfg */
    static ReplicaProcess start(String master, String name, String deliveryCfg) throws IOException {
        return start(
                master,
                name,
                Map.of(
                        "io.hotsched.delivery.cfg",
                        deliveryCfg,
                        "scheduler.yaml",
                        "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
                                + "- schedulerName: " + name + "-only\n",
                        "io.hotsched.kube.cfg",
                        "report = false\n"));
    }

    /**
     * A replica whose etc/ is the distribution's with {@code etc}'s files (name to content) written
     * over it; {@code name} names its copy.
     */
    static ReplicaProcess start(String master, String name, Map<String, String> etc) throws IOException {
        Path home = Files.createTempDirectory("hotsched-replica-" + name + "-");
        PlatformOptions.copyTree(Path.of(System.getProperty("hotsched.dist")), home);
        for (Map.Entry<String, String> f : etc.entrySet()) {
            Files.writeString(home.resolve("etc").resolve(f.getKey()), f.getValue());
        }
        // the test's own platform serves /metrics on the shipped port
        Path scheduler = home.resolve("etc/io.hotsched.scheduler.cfg");
        Files.writeString(
                scheduler, Files.readString(scheduler).replaceAll("(?m)^metricsAddress = .*$", "metricsAddress = "));
        Process p = new ProcessBuilder(home.resolve("bin/hotsched").toString(), "--no-shell", "--master", master)
                .redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .start();
        return new ReplicaProcess(p);
    }

    private void read() {
        try (BufferedReader in =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                System.out.println("  replica | " + line);
                synchronized (lines) {
                    lines.add(line);
                    lines.notifyAll();
                }
            }
        } catch (IOException e) {
            // the process ended
        } finally {
            synchronized (lines) {
                lines.notifyAll();
            }
        }
    }

    /** Waits (on each new line) until a line of its output contains {@code text}. */
    void awaitLine(String text) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        synchronized (lines) {
            while (lines.stream().noneMatch(l -> l.contains(text))) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || (!process.isAlive() && lines.stream().noneMatch(l -> l.contains(text)))) {
                    throw new AssertionError("the replica did not print '" + text + "' (alive: " + process.isAlive()
                            + "):\n" + String.join("\n", lines));
                }
                TimeUnit.NANOSECONDS.timedWait(lines, Math.min(left, TimeUnit.SECONDS.toNanos(1)));
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
